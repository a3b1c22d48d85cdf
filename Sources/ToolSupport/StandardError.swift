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

/// Says `message` on standard error (`tool: message`) and exits with status 1, the tools' status for a
/// failure.
package func fail(_ message: String) -> Never {
    StandardError.line(message)
    System.exit(1)
}
