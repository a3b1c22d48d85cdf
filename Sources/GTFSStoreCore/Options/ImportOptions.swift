public import GTFS

/// How an import loads a feed, into either store.
///
/// ```swift
/// var options = ImportOptions()
/// options.parsing.strict = true                     // the first bad row stops the import, nothing changes
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

    /// How many rejected rows of one file fail the import.
    public enum RejectionLimit: Sendable, Hashable, CustomStringConvertible {
        /// More than this many rejected rows in a file fail the import (`0`: any rejected row does).
        case rows(Int)
        /// More than this share (0…1) of a file's rows rejected fails the import (`1`: never).
        case share(Double)

        /// Whether `rejected` of `read` rows of one file stay within the limit.
        ///
        /// - Parameters:
        ///   - rejected: the file's rejected rows.
        ///   - read: the file's rows.
        /// - Returns: `true` when the import may go on.
        public func allows(rejected: Int, of read: Int) -> Bool {
            switch self {
            case .rows(let limit): rejected <= limit
            case .share(let limit): Double(rejected) <= limit * Double(read)
            }
        }

        /// `1,000 rows` or `50%`.
        public var description: String {
            switch self {
            case .rows(let limit): limit == 1 ? "1 row" : "\(Count.grouped(limit)) rows"
            case .share(let limit):
                (limit * 100).rounded() == limit * 100 ? "\(Int(limit * 100))%" : "\(limit * 100)%"
            }
        }
    }

    /// The feed the rows belong to: several feeds live side by side in one store, each under its name
    /// (`feed` column, `feeds` table). `default` when not given.
    public var feed = "default"
    /// Incremental when possible (the default) or a full replacement.
    public var update: Update = .automatic
    /// Atomic (the default) or batched commits.
    public var mode: Mode = .atomic
    /// What the import replaces; `nil` (the default) decides by the source: a directory or zip replaces
    /// all tables, single files and standard input replace only their own tables.
    public var replacement: Replacement?
    /// How the files are read and parsed: strict or lenient (the first bad row stops the import and
    /// changes nothing, or bad rows are rejected and reported and the rest imported), the chunk and batch
    /// sizes, the field limits, and the errors and warnings kept per table in the summary (all are counted).
    /// The defaults are `ParseOptions`'s, except that 1,000 warnings are kept, as many as errors.
    /// The import sets `ParseOptions.hashesContent` and `ParseOptions.tables` itself (it
    /// hashes every file to skip unchanged ones next time, and reads what its plan needs), and refuses
    /// other values of them.
    public var parsing: ParseOptions = {
        var parsing = ParseOptions()
        parsing.maxStoredWarnings = parsing.maxStoredErrors
        parsing.hashesContent = true
        return parsing
    }()
    /// Batches parsed ahead of the writer; the parser waits beyond that, so memory stays flat.
    public var maxBatchesInFlight = 4
    /// Whether references between tables are checked after the load (see `IntegrityReport`).
    public var checksReferences = true
    /// Lenient mode: how many rejected rows of one file fail the whole import (nothing is then written;
    /// in ``Mode/batched(rowsPerCommit:)`` mode, what was committed before stays).
    /// The default, more than half of a file's rows, keeps a file whose rows are all bad (a wrong file, a
    /// quote that swallows the rest of it) from emptying its table.
    public var maxRejected = RejectionLimit.share(0.5)
    /// How long an import waits for another import (or removal) writing the same database to end; `nil`
    /// (the default) waits as long as it takes, `.zero` fails at once with ``ImportError/busy(path:)``.
    /// Imports of one database run one after the other, whichever process runs them.
    public var lockWait: Duration?
    /// Told of every row the import inserts, updates or deletes (see ``RowChange``), on the import's writer
    /// thread, table by table, before the import commits (atomic imports only): an import that then fails or is cancelled
    /// changes nothing, and its reported changes did not happen. An incremental import reports the rows
    /// that differ; a full import every stored row it removes and every row it stores. `nil` (the
    /// default): none are reported, and the import does no work for them.
    public var changeHandler: (@Sendable (RowChange) -> Void)?
    /// Whether the import keeps its changes in the store's `changes` table, under its id in `imports`:
    /// every row an incremental import inserts, updates or deletes (key and changed columns as JSON), or one
    /// `replace` row per table a full import replaces. Ask `SELECT … FROM changes WHERE import_id > N` what
    /// changed since import N. For atomic imports only.
    public var keepsChanges = false
    /// Called once on the import's writer thread when everything is written and every change was told to
    /// ``changeHandler``, right before the commit (atomic imports that change something). An error it
    /// throws rolls the import back: it fails with ``ImportError/commitRefused(reason:)`` and the store
    /// is as it was. Make what must not outlive a rolled-back import durable here, e.g. a log of the
    /// changes: after it returns the import commits, or fails and changes nothing.
    public var beforeCommit: (@Sendable () throws -> Void)?
    /// How the store records the source (`feeds.source`, `imports.source`) and messages name it, when not by
    /// its path: the URL a downloaded feed came from (`GTFSFetch` sets it). `nil` (the default): the path.
    public var sourceName: String?

    /// The most rows of one group an incremental import holds in memory (``GroupedTables/maxHeldRows``);
    /// tests set fewer to take the path of large groups with small ones.
    package var maxHeldGroupRows = GroupedTables.maxHeldRows

    /// Creates the default options: feed `default`, incremental when possible, atomic, lenient, references checked.
    public init() {}

    /// Checks every option as ``validate()`` does, and that the store can do what they ask: an option it
    /// cannot honour is refused rather than ignored.
    ///
    /// - Parameter capabilities: what the store does (``FeedStore/capabilities``).
    /// - Throws: ``ImportError/invalidOption(option:problem:)`` naming the option.
    public func validate(for capabilities: StoreCapabilities) throws(ImportError) {
        try validate()
        if case .batched = mode, !capabilities.batchedCommits {
            throw .invalidOption(option: "mode", problem: "this store imports in one transaction; batched commits are not available")
        }
        if changeHandler != nil, !capabilities.reportsChanges { throw .invalidOption(option: "changeHandler", problem: "this store does not report the changes") }
        if keepsChanges, !capabilities.keepsChanges { throw .invalidOption(option: "keepsChanges", problem: "this store does not keep the changes") }
    }

    /// Runs ``beforeCommit``, if set, right before an import commits.
    /// - Throws: ``ImportError/commitRefused(reason:)`` with the text of its error.
    package func runBeforeCommit() throws(ImportError) {
        guard let beforeCommit else { return }
        do {
            try beforeCommit()
        } catch {
            throw .commitRefused(reason: "\(error)")
        }
    }

    /// The largest ``maxBatchesInFlight``.
    public static let maxBatchesInFlightLimit = 1024

    /// Checks every option against its range, before an import touches anything.
    ///
    /// - Throws: ``ImportError/invalidOption(option:problem:)`` naming the option, its value and its range.
    public func validate() throws(ImportError) {
        do {
            try parsing.validate()
        } catch {
            throw .invalidOption(option: "parsing." + (error.column ?? ""), problem: error.message)
        }
        if parsing.tables != nil {
            throw .invalidOption(option: "parsing.tables", problem: "an import reads the tables of its source; give a source of those tables only")
        }
        if !parsing.hashesContent {
            throw .invalidOption(option: "parsing.hashesContent", problem: "an import hashes every file, to skip the unchanged ones next time")
        }
        if feed.isEmpty { throw .invalidOption(option: "feed", problem: "the name is empty") }
        if case .batched(let rows) = mode, rows < 1 { throw .invalidOption(option: "mode", problem: "batched(rowsPerCommit: \(rows)) needs at least 1 row") }
        guard (1 ... Self.maxBatchesInFlightLimit).contains(maxBatchesInFlight) else {
            throw .invalidOption(option: "maxBatchesInFlight", problem: "\(maxBatchesInFlight) is out of range (1 to \(Self.maxBatchesInFlightLimit))")
        }
        switch maxRejected {
        case .rows(let limit) where limit < 0:
            throw .invalidOption(option: "maxRejected", problem: "\(limit) rows is negative")
        case .share(let limit) where !(0 ... 1).contains(limit):
            throw .invalidOption(option: "maxRejected", problem: "a share of \(limit) is out of range (0 to 1)")
        default: break
        }
        if let lockWait, lockWait < .zero { throw .invalidOption(option: "lockWait", problem: "\(lockWait) is negative") }
        // Batched commits keep what they committed when a later batch fails: the changes reported up to
        // then would be half true.
        if case .batched = mode, keepsChanges {
            throw .invalidOption(option: "keepsChanges", problem: "the changes are kept only for atomic imports, not with batched commits")
        }
        if case .batched = mode, changeHandler != nil {
            throw .invalidOption(option: "changeHandler", problem: "the changes are reported only for atomic imports, not with batched commits")
        }
        if case .batched = mode, beforeCommit != nil {
            throw .invalidOption(option: "beforeCommit", problem: "batched imports commit many times; it is for atomic imports")
        }
    }
}
