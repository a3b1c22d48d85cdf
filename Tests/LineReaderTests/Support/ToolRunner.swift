import Foundation

/// Runs a built executable of this package and captures what it prints.
struct ToolRunner {
    struct Output {
        let status: Int32
        let stdout: Data
        let stderr: String
    }

    /// The folder holding the test bundle and the package's executables (`.build/debug`).
    static let productsDirectory: URL = {
        let executable = URL(fileURLWithPath: ProcessInfo.processInfo.arguments[0])
        var directory = executable.deletingLastPathComponent()
        // On Linux the test binary sits in the products folder; on macOS inside a .xctest bundle.
        while directory.pathExtension == "xctest" || directory.lastPathComponent == "Contents"
            || directory.lastPathComponent == "MacOS"
        {
            directory.deleteLastPathComponent()
        }
        return directory
    }()

    /// Runs `tool` with `arguments`, feeding `stdin`, optionally through a wrapper command (e.g. setpriv);
    /// with a wrapper, its last element is the executable to run instead of `tool`'s build product.
    static func run(_ tool: String, _ arguments: [String], stdin: Data? = nil, wrapper: [String] = []) throws -> Output {
        let process = Process()
        let path = productsDirectory.appendingPathComponent(tool).path
        if wrapper.isEmpty {
            process.executableURL = URL(fileURLWithPath: path)
            process.arguments = arguments
        } else {
            process.executableURL = URL(fileURLWithPath: wrapper[0])
            process.arguments = Array(wrapper.dropFirst()) + arguments
        }
        let outPipe = Pipe()
        let errPipe = Pipe()
        let inPipe = Pipe()
        process.standardOutput = outPipe
        process.standardError = errPipe
        process.standardInput = inPipe
        try process.run()
        // Write stdin on another thread so a large output cannot dead-lock the pipes.
        let input = stdin ?? Data()
        let writer = Thread {
            inPipe.fileHandleForWriting.write(input)
            try? inPipe.fileHandleForWriting.close()
        }
        writer.start()
        let errData = ErrorCollector(errPipe.fileHandleForReading)
        let out = outPipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(status: process.terminationStatus, stdout: out, stderr: errData.text())
    }
}

/// Reads a pipe to its end on a background thread.
final class ErrorCollector: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread {
            self.data = handle.readDataToEndOfFile()
            self.done.signal()
        }.start()
    }

    func text() -> String {
        done.wait()
        return String(decoding: data, as: UTF8.self)
    }
}
