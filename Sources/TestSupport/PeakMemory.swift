import Foundation

extension ToolRunner {
    /// How a tool run under ``measuringPeakMemory(_:_:)`` ended.
    public struct Measured: Sendable {
        /// The exit status.
        public let status: Int32
        /// Its peak resident memory in bytes.
        public let peakBytes: Int
    }

    /// Whether ``measuringPeakMemory(_:_:)`` can run: it needs GNU time (Debian's `time` package).
    public static let canMeasurePeakMemory = FileManager.default.isExecutableFile(atPath: "/usr/bin/time")

    /// Runs `tool` to its end, its output discarded, and reads its peak memory through GNU time, which forks
    /// it from a small process of its own: a child spawned from the test process (`posix_spawn` shares the
    /// parent's memory until `exec`) would be charged the test process's peak.
    ///
    /// - Throws: when the process cannot start or GNU time reports nothing.
    public static func measuringPeakMemory(_ tool: String, _ arguments: [String]) throws -> Measured {
        let report = NSTemporaryDirectory() + "gtfs-peak-\(getpid())-\(UInt32.random(in: 0 ... .max))"
        defer { unlink(report) }
        let path = productsDirectory.appendingPathComponent(tool).path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/time")
        process.arguments = ["-f", "%x %M", "-o", report, path] + arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        let fields = try String(contentsOfFile: report, encoding: .utf8).split(whereSeparator: \.isWhitespace)
        // GNU time writes "Command exited with non-zero status N" first when the status is not 0.
        guard fields.count >= 2, let status = Int32(fields[fields.count - 2]), let kilobytes = Int(fields[fields.count - 1]) else {
            throw CocoaError(.fileReadCorruptFile)
        }
        return Measured(status: status, peakBytes: kilobytes * 1024)
    }
}
