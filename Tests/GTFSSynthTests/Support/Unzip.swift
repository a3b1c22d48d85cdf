import Foundation

/// Info-ZIP's `unzip`, when it is installed.
enum Unzip {
    /// The `unzip` executable found on `PATH`, or `nil`.
    static let executable: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { $0 + "/unzip" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// Runs `unzip -t archive` and returns its exit status and output.
    static func test(_ archive: String) throws -> (status: Int32, output: String)? {
        guard let executable else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["-t", archive]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }
}
