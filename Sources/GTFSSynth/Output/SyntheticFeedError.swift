/// Why a synthetic feed could not be generated or written.
package struct SyntheticFeedError: Error, CustomStringConvertible, Sendable {
    /// The file or directory involved, empty when none is.
    package let path: String
    /// What went wrong, e.g. `cannot write: No space left on device (errno 28)`.
    package let message: String

    /// Creates an error.
    package init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// `path: message`, or the message alone.
    package var description: String { path.isEmpty ? message : "\(path): \(message)" }
}
