import GTFS

/// How an ``ImportOperation`` loads a feed.
///
/// ```swift
/// var options = ImportOptions()
/// options.strict = true                        // the first bad row stops the import, nothing changes
/// options.mode = .batched(rowsPerCommit: 10_000) // a live view sees rows arrive
/// ```
public struct ImportOptions: Sendable {
    /// When the import's writes become visible to readers.
    public enum Mode: Sendable, Hashable {
        /// One transaction for the whole import: readers see the old feed until the new one is complete;
        /// a cancel, an error or a killed process leaves the database exactly as it was.
        case atomic
        /// A commit every `rowsPerCommit` rows, so a live view can watch rows arrive. A cancel or an error
        /// keeps what was committed and records where it stopped (``ImportError/stoppedAt``, and
        /// `gtfs_meta` under `import_stopped_at`). The store's indexes stay in place, so live queries stay fast.
        case batched(rowsPerCommit: Int)
    }

    /// Which tables of the store the imported data replaces.
    public enum Replacement: Sendable, Hashable {
        /// Every GTFS table is emptied first: a table the new feed lacks ends up empty.
        case allTables
        /// Only the tables the input holds are emptied and reloaded; the others keep their rows.
        case importedTables
    }

    /// How an import meets a feed the store already holds.
    public enum Update: Sendable, Hashable {
        /// Incremental when the store holds the feed and the mode is atomic: files whose content hash
        /// matches the stored version are not read again, the others are compared by key and only the
        /// rows that differ are written. A first import, or one in batched mode, is a full import.
        case automatic
        /// Replace the feed's tables whole, as a first import does.
        case full
    }

    /// The feed the rows belong to: several feeds live side by side in one store, each under its name
    /// (`feed` column, `feeds` table). `default` when not given.
    public var feed = "default"
    /// Incremental when possible (the default) or a full replacement.
    public var update: Update = .automatic
    /// Atomic (the default) or batched commits.
    public var mode: Mode = .atomic
    /// Strict: the first bad row (a value of the wrong type, a duplicate key) stops the import and
    /// changes nothing. Lenient (the default): bad rows are rejected and reported, the rest is imported.
    public var strict = false
    /// What the import replaces; `nil` (the default) decides by the source: a directory or zip replaces
    /// all tables, single files and standard input replace only their own tables.
    public var replacement: Replacement?
    /// Bytes read from the input at a time (the Reader's chunk size).
    public var chunkSize = ParseOptions().chunkSize
    /// Records per batch handed from the parser to the writer.
    public var batchSize = ParseOptions().batchSize
    /// Batches parsed ahead of the writer; the parser waits beyond that, so memory stays flat.
    public var maxBatchesInFlight = 4
    /// Whether references between tables are checked after the load (see ``IntegrityReport``).
    public var checksReferences = true
    /// Errors and warnings kept per table in the summary (all are counted).
    public var maxStoredErrors = ParseOptions().maxStoredErrors

    /// Creates the default options: feed `default`, incremental when possible, atomic, lenient, references checked.
    public init() {}

    /// The parser's options derived from these.
    var parseOptions: ParseOptions {
        var options = ParseOptions()
        options.strict = strict
        options.chunkSize = chunkSize
        options.batchSize = batchSize
        options.maxStoredErrors = maxStoredErrors
        options.maxStoredWarnings = maxStoredErrors
        options.hashesContent = true
        return options
    }
}
