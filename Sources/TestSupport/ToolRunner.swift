public import Foundation
import Synchronization

/// Runs a built executable of this package and captures what it prints.
public enum ToolRunner {
    /// What a finished tool printed, and how it ended.
    public struct Output: Sendable {
        /// The exit status, or the signal number when ``wasSignalled``.
        public let status: Int32
        /// Whether a signal ended the process.
        public let wasSignalled: Bool
        /// Standard output.
        public let stdout: Data
        /// Standard error as text.
        public let stderr: String

        /// Standard output as text.
        public var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
    }

    /// A tool that is still running: feed its standard input, signal it, wait for it.
    public final class Running: @unchecked Sendable {
        /// The process.
        public let process: Process
        private let input: FileHandle
        /// Whether `input` was closed: a second close could close the same descriptor number after another
        /// test's pipe took it, and that test's read then fails with EBADF.
        private let inputClosed = Mutex(false)
        private let output: PipeCollector
        private let errors: PipeCollector

        init(process: Process, input: FileHandle, output: PipeCollector, errors: PipeCollector) {
            self.process = process
            self.input = input
            self.output = output
            self.errors = errors
        }

        /// Writes to the tool's standard input.
        public func write(_ data: Data) throws {
            try input.write(contentsOf: data)
        }

        /// Waits until the tool's standard error contains `text`, at most `timeout`.
        ///
        /// - Returns: whether it appeared in time.
        public func waitForStandardError(containing text: String, timeout: Duration = .seconds(30)) -> Bool {
            let start = ContinuousClock.now
            while ContinuousClock.now - start < timeout {
                if String(decoding: errors.dataSoFar(), as: UTF8.self).contains(text) { return true }
                Thread.sleep(forTimeInterval: 0.01)
            }
            return false
        }

        /// Closes the tool's standard input.
        public func closeInput() throws {
            try inputClosed.withLock { closed in
                guard !closed else { return }
                closed = true
                try input.close()
            }
        }

        /// Sends `signal` to the process.
        public func send(_ signal: Int32) {
            kill(process.processIdentifier, signal)
        }

        /// Waits at most `timeout` for the end; a tool still running then is killed (SIGKILL).
        ///
        /// - Returns: what it printed, or `nil` when it had to be killed.
        public func wait(timeout: Duration) -> Output? {
            let start = ContinuousClock.now
            while process.isRunning && ContinuousClock.now - start < timeout { Thread.sleep(forTimeInterval: 0.01) }
            guard process.isRunning else { return wait() }
            send(SIGKILL)
            _ = wait()
            return nil
        }

        /// Waits for the end and returns what it printed.
        public func wait() -> Output {
            process.waitUntilExit()
            try? closeInput()  // nothing to report: the tool has ended
            return Output(
                status: process.terminationStatus, wasSignalled: process.terminationReason == .uncaughtSignal,
                stdout: output.data(), stderr: String(decoding: errors.data(), as: UTF8.self))
        }
    }

    /// A test that writes to a tool's input (a pipe, a FIFO) must see an error when the tool has stopped
    /// reading, not end the whole test process with SIGPIPE.
    public static let ignoresBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()

    /// The folder holding the test bundle and the package's executables (`.build/debug`).
    public static let productsDirectory: URL = {
        // On Linux the test binary runs itself. On macOS a helper runs the bundle (`swiftpm-testing-helper
        // --test-bundle-path BUNDLE`, or Xcode's `xctest`), so the first argument is not inside it.
        let arguments = ProcessInfo.processInfo.arguments
        let bundle = arguments.firstIndex(of: "--test-bundle-path").flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
            ?? Bundle.allBundles.first { $0.bundlePath.hasSuffix(".xctest") }?.bundlePath
        let executable = URL(fileURLWithPath: bundle ?? arguments[0])
        var directory = executable.deletingLastPathComponent()
        // On Linux the test binary sits in the products folder; on macOS inside a .xctest bundle.
        while directory.pathExtension == "xctest" || directory.lastPathComponent == "Contents"
            || directory.lastPathComponent == "MacOS"
        {
            directory.deleteLastPathComponent()
        }
        return directory
    }()

    /// Starts `tool` with `arguments`, optionally through a wrapper command (e.g. setpriv); with a
    /// wrapper, its last element is the executable to run instead of `tool`'s build product.
    ///
    /// - Parameters:
    ///   - tool: the executable product's name.
    ///   - arguments: its arguments.
    ///   - wrapper: a command line that runs the tool.
    ///   - directory: the working directory; the current one when `nil`.
    ///   - environment: variables set (or replaced) in the tool's environment.
    /// - Returns: the running tool.
    /// - Throws: when the process cannot start.
    public static func start(
        _ tool: String, _ arguments: [String], wrapper: [String] = [], directory: String? = nil, environment: [String: String] = [:]
    ) throws -> Running {
        _ = ignoresBrokenPipes
        let process = Process()
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, given in given }
        }
        let path = productsDirectory.appendingPathComponent(tool).path
        if wrapper.isEmpty {
            process.executableURL = URL(fileURLWithPath: path)
            process.arguments = arguments
        } else {
            process.executableURL = URL(fileURLWithPath: wrapper[0])
            process.arguments = Array(wrapper.dropFirst()) + arguments
        }
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let outPipe = Pipe()
        let errPipe = Pipe()
        let inPipe = Pipe()
        process.standardOutput = outPipe
        process.standardError = errPipe
        process.standardInput = inPipe
        try process.run()
        return Running(
            process: process, input: inPipe.fileHandleForWriting, output: PipeCollector(outPipe.fileHandleForReading),
            errors: PipeCollector(errPipe.fileHandleForReading))
    }

    /// Runs `tool` to its end, feeding `stdin`.
    ///
    /// - Parameters:
    ///   - tool: the executable product's name.
    ///   - arguments: its arguments.
    ///   - stdin: its standard input (empty when `nil`).
    ///   - wrapper: a command line that runs the tool (see ``start(_:_:wrapper:directory:environment:)``).
    ///   - directory: the working directory.
    ///   - environment: variables set (or replaced) in the tool's environment.
    /// - Returns: what it printed and its status.
    /// - Throws: when the process cannot start.
    public static func run(
        _ tool: String, _ arguments: [String], stdin: Data? = nil, wrapper: [String] = [], directory: String? = nil,
        environment: [String: String] = [:]
    ) throws -> Output {
        for attempt in 1... {
            let running = try start(tool, arguments, wrapper: wrapper, directory: directory, environment: environment)
            // Write stdin on another thread so a large output cannot dead-lock the pipes.
            let input = stdin ?? Data()
            let writer = Thread {
                try? running.write(input)  // the tool may exit without reading everything: not an error here
                try? running.closeInput()
            }
            writer.start()
            let output = running.wait()
            // A copy of a tool that a test just wrote may still be open for writing in a child that another
            // test's thread forked meanwhile: its exec fails (ETXTBSY) until that child has exec'd too.
            guard !wrapper.isEmpty, output.status == 126, output.stderr.contains("Text file busy"), attempt < 50 else { return output }
            Thread.sleep(forTimeInterval: 0.05)
        }
        fatalError("unreachable")
    }
}

/// Reads a pipe to its end on a background thread; what arrived so far can be looked at meanwhile.
final class PipeCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var collected = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread {
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                self.lock.withLock { self.collected.append(chunk) }
            }
            self.done.signal()
        }.start()
    }

    /// What was read so far.
    func dataSoFar() -> Data {
        lock.withLock { collected }
    }

    /// Everything read, once the pipe has closed.
    func data() -> Data {
        done.wait()
        done.signal()
        return dataSoFar()
    }
}
