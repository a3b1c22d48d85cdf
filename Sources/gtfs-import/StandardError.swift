import GTFS

import Platform

/// Unbuffered writes to standard error and the terminal test.
enum StandardError {
    /// Whether standard error is a terminal (the live progress line is drawn only there).
    static var isTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    /// Writes `text` as is.
    static func write(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            var done = 0
            while done < bytes.count {
                let written = System.write(STDERR_FILENO, bytes.baseAddress.map { $0 + done }, bytes.count - done)
                if written < 0 && errno == EINTR { continue }
                // Standard error is gone: nothing else can report it.
                if written <= 0 { return }
                done += written
            }
        }
    }

    /// Writes `gtfs-import: message` and a newline, control characters in the message escaped (it may
    /// quote file names and values from a feed).
    static func line(_ message: String) {
        write("gtfs-import: \(GTFSError.displayable(message))\n")
    }
}
