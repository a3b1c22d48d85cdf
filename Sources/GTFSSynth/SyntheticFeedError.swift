/// Why a synthetic feed could not be generated or written.
public struct SyntheticFeedError: Error, CustomStringConvertible, Sendable {
    /// The file or directory involved, empty when none is.
    public let path: String
    /// What went wrong, e.g. `cannot write: No space left on device (errno 28)`.
    public let message: String

    /// Creates an error.
    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// `path: message`, or the message alone.
    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}
