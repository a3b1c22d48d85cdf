import Platform

/// Unbuffered writes to standard error and the terminal test, for the package's tools.
package enum StandardError {
    /// Whether standard error is a terminal (the live progress line is drawn only there).
    package static var isTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    /// Writes `text` as is.
    package static func write(_ text: String) {
        var text = text
        // Standard error is gone when this fails: nothing else can report it.
        _ = text.withUTF8 { System.writeAll(STDERR_FILENO, UnsafeRawBufferPointer($0)) }
    }

    /// Writes `tool: message` and a newline, control characters in the message escaped (it may quote file
    /// names and values from a feed).
    package static func line(_ message: String) {
        write("\(toolName): \(DisplayText.escaped(message))\n")
    }

    /// The running tool's name (`gtfs-import`), which its messages begin with.
    package static var toolName: String {
        guard let path = CommandLine.arguments.first, let name = path.split(separator: "/").last else { return "gtfs" }
        return String(name)
    }
}

/// What ends a command that failed: one line on standard error (`tool: message`, control characters
/// escaped) and an exit status (1, the tools' status for a failure, unless another is given). A command
/// throws it out of `run()`; `runAsTool()` is the one place that turns it into the line and the status.
package struct ToolFailure: Error {
    package let message: String
    package let status: Int32

    package init(_ message: String, status: Int32 = 1) {
        (self.message, self.status) = (message, status)
    }
}
