/// What a store does of the options an import may ask for: an option it cannot honour is refused by
/// ``ImportOptions/validate(for:)`` with ``ImportError/invalidOption(option:problem:)``, before anything is touched.
public struct StoreCapabilities: Sendable, Hashable {
    /// Commits every N rows (``ImportOptions/Mode/batched(rowsPerCommit:)``).
    public var batchedCommits: Bool
    /// Tells every changed row to ``ImportOptions/changeHandler``.
    public var reportsChanges: Bool
    /// Keeps the changes in the store (``ImportOptions/keepsChanges``).
    public var keepsChanges: Bool

    /// Creates a set of capabilities.
    public init(batchedCommits: Bool, reportsChanges: Bool, keepsChanges: Bool) {
        self.batchedCommits = batchedCommits
        self.reportsChanges = reportsChanges
        self.keepsChanges = keepsChanges
    }
}
