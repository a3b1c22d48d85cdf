import Foundation
import GRDB
import GTFS
import LineReader

/// The writer's side of an import, inside the transaction(s) a ``CommitPolicy`` opens: it takes the batches
/// from the parser's channel, hands each table's rows to a ``TableLoader`` (chosen per table), and ends the
/// load (``finishTables(_:)``, then ``complete(_:_:)``).
struct ImportWriter {
    /// What the import does, decided before writing.
    let plan: ImportPlan
    /// The database file, for messages.
    let databasePath: String
    let options: ImportOptions
    /// The input, for the catalog (its name, its zip CRCs) and to tell a whole feed from single files.
    let source: FeedSource
    let pipeline: ImportPipeline
    let channel: BoundedChannel<ParsedBatch, FeedSummary>
    let reporter: ProgressReporter
    /// Called as each file's first batch arrives and as each later phase begins (see ``ImportRun``).
    let observe: (ImportProgress.Phase, String) -> Void
    /// The counts.
    var state: WriterState
    /// The feed's number in `feeds`, once ``begin(_:dropsIndexes:)`` ran.
    private(set) var feed: Int64 = 0
    /// The table being stored, its file's name, and its loader.
    private var current: (any TableLoader)?
    /// Finds the lines where refused keys first appeared, by reading their file again.
    private let earlierLines: EarlierLines
    /// The tables an incremental import stores straight into the store (see ``loader(for:_:)``).
    private var directTables: Set<GTFSFile> = []
    /// Told of every row the import changes, when the options ask for them.
    private let changes: ChangeRecorder?
    let keeper: ChangeKeeper
    /// The feed's rows per table in the file this import replaces whole (see ``ReplacedDatabase``): they
    /// count as deleted.
    var replacedRows: [GTFSFile: Int] = [:]

    init(
        plan: ImportPlan, databasePath: String, options: ImportOptions, source: FeedSource, pipeline: ImportPipeline,
        channel: BoundedChannel<ParsedBatch, FeedSummary>, reporter: ProgressReporter, start: ContinuousClock.Instant,
        startDate: Date, observe: @escaping (ImportProgress.Phase, String) -> Void
    ) {
        self.plan = plan
        self.databasePath = databasePath
        self.options = options
        self.source = source
        self.pipeline = pipeline
        self.channel = channel
        self.reporter = reporter
        self.observe = observe
        state = WriterState(start: start, startDate: startDate)
        earlierLines = EarlierLines(source: source, options: options.parsing) { pipeline.isCancelled }
        let handler = options.changeHandler
        let keeper = ChangeKeeper()
        self.keeper = keeper
        // A full import keeps one row per replaced table, not its rows: without a handler, nothing to report.
        changes = handler != nil || (options.keepsChanges && plan.incremental)
            ? ChangeRecorder(feedName: options.feed, handler: { change in
                handler?(change)
                keeper.kept?.keep(change)
            }, confirmation: plan.confirmation)
            : nil
    }

    /// Where the changes go when the import keeps them (set when the import begins, on its connection).
    final class ChangeKeeper: @unchecked Sendable {
        // Set and used on the writer's thread only.
        var kept: KeptChanges?
    }

    /// Offers a progress report of `phase` (loading reports come from ``load(_:commitEvery:)``).
    func report(_ phase: ImportProgress.Phase) {
        observe(phase, "")
        offerProgress(phase)
    }

    /// Offers the progress so far, in `phase`.
    private func offerProgress(_ phase: ImportProgress.Phase) {
        let bytes = pipeline.bytes
        reporter.offer(state.progress(phase: phase, bytesRead: bytes.read, totalBytes: bytes.total))
    }

    // MARK: - Beginning

    /// The first step inside the import's transaction: the feed's number (created for a new feed), a
    /// check that no other import changed the feed since it was planned, and for a full import the
    /// removal of the feed's earlier rows (with their counts) and of the indexes rebuilt at the end.
    mutating func begin(_ db: Database, dropsIndexes: Bool) throws {
        defer { state.rowsStart = .now }
        if options.keepsChanges { keeper.kept = try KeptChanges(db, feedName: options.feed, keepsRows: plan.incremental) }
        feed = try FeedCatalog.id(db, name: options.feed)
        let importID = try Int64.fetchOne(db, sql: "SELECT import_id FROM feeds WHERE feed = ?", arguments: [feed])
        if let existing = plan.existing, existing.importID != importID {
            throw ImportError.database(
                path: databasePath, message: "feed \(options.feed) was changed by another import meanwhile; nothing was written, run the import again")
        }
        guard !plan.incremental else { return }
        state.countDeleted(replacedRows)
        if dropsIndexes { try GTFSSchema.dropIndexes(db, on: Set(plan.replaced)) }
        if let existing = plan.existing, !existing.tablesWithRows.isDisjoint(with: plan.replaced) {
            report(.removingRows)
            if let changes {
                for file in GTFSFile.loadOrder where plan.replaced.contains(file) && existing.tablesWithRows.contains(file) {
                    try changes.reportRows(db, of: file, feed: feed, as: .delete) { pipeline.isCancelled }
                }
            }
        }
        state.countDeleted(
            try GTFSSchema.deleteRows(db, of: plan.replaced, feed: try FeedCatalog.hasOtherFeeds(db, than: feed) ? feed : nil))
        try FeedCatalog.forgetHashes(db, feed: feed, of: plan.replaced)
    }

    // MARK: - Loading

    /// Stores batches until the parser ends (`true`) or, in batched mode, until `commitEvery` rows have
    /// been stored since the last commit (`false`).
    /// - Throws: the parser's error, a store error, `CancellationError`.
    mutating func load(_ db: Database, commitEvery: Int?) throws -> Bool {
        while true {
            switch channel.next() {
            case .closed:
                throw CancellationError()
            case .end(let result):
                let summary = try result.get()
                // A single table that is empty (0 bytes, or no header) would silently empty its table:
                // refuse it. In a whole feed an empty optional file is common and means "no rows".
                if !source.isWholeFeed, let empty = summary.tables.lazy.flatMap(\.warnings).first(where: { $0.kind == .emptyFile }) {
                    throw empty
                }
                state.feedSummary = summary
                return true
            case .item(let parsed):
                try pipeline.checkCancelled()
                try store(parsed, db)
                try checkRefusals()
                offerProgress(.loading)
                if let commitEvery, state.rowsSinceCommit >= commitEvery { return false }
            }
        }
    }

    /// Fails as soon as the store has refused more rows of the current file than a count limit allows
    /// (a share can only be judged at the end of the file, see ``complete(_:_:)``): a feed of one repeated
    /// row then stops at once instead of after every row.
    private mutating func checkRefusals() throws {
        guard case .rows(let limit) = options.maxRejected else { return }
        let counts = state.currentFileCounts
        guard counts.refused > limit else { return }
        if current != nil, let table = state.currentTable { try resolveRefusals(of: state.currentFile, file: table) }
        throw ImportError.tooManyRejected(
            file: state.currentFile, rejected: counts.refused, read: counts.stored + counts.refused, limit: options.maxRejected,
            first: state.currentFileFirstRefusal)
    }

    /// Stores one batch with its table's loader, ending the previous table when a new file begins.
    private mutating func store(_ parsed: ParsedBatch, _ db: Database) throws {
        if parsed.batch.fileName != state.currentFile {
            observe(.loading, parsed.batch.fileName)
            // The previous file is complete: apply it while the parser reads this one.
            try endTable(db)
            state.finishFile()
            state.beginFile(parsed.batch.fileName, table: parsed.batch.file)
            current = try loader(for: parsed.batch.file, db)
        }
        try current?.store(parsed, db, &state)
    }

    /// Ends the table being stored, recording its changes when it was compared, and names in its refusal
    /// errors the lines their keys first appeared on.
    private mutating func endTable(_ db: Database) throws {
        guard var loader = current, let table = state.currentTable else { return }
        current = nil
        if let changes = try loader.finish(db, &state) { state.changesByTable[table] = changes }
        try resolveRefusals(of: state.currentFile, file: table)
    }

    /// Names in the kept refusal errors of `fileName` whose key first appeared in an earlier batch the line
    /// it appeared on, reading the file again once up to the last of them (the rows without refusals pay
    /// nothing). Standard input cannot be read again: its errors keep saying "an earlier row".
    private mutating func resolveRefusals(of fileName: String, file: GTFSFile) throws {
        let unresolved = state.unresolvedRefusals(of: fileName)
        guard let last = unresolved.map(\.line).max() else { return }
        let lines = try earlierLines.find(
            Set(unresolved.map(\.values)), fields: DuplicateKeys.Key(file).fields, in: fileName, before: last)
        state.resolveRefusals(of: fileName, lines: lines)
    }

    /// The loader of `file`'s table: a full import stores every table straight into the store; an
    /// incremental one compares, except a table the stored feed has no rows in (a file it gains), which has
    /// nothing to compare with and is stored as a full import stores it: its post-load indexes dropped and
    /// rebuilt at the end, its group digests recorded. (Staging and comparing took 66–74 s for 5 M stop_times
    /// added to a one-stop feed, against 8.5–9.6 s for a full import.)
    private mutating func loader(for file: GTFSFile, _ db: Database) throws -> any TableLoader {
        guard plan.incremental, let existing = plan.existing else { return try StoreLoader(db, file: file, inserter: inserter) }
        if !existing.tablesWithRows.contains(file) {
            try GTFSSchema.dropIndexes(db, on: [file])
            try FeedGroups.delete(db, feed: feed, tables: [file])
            directTables.insert(file)
            return try StoreLoader(db, file: file, inserter: inserter)
        }
        return try diffLoader(for: file, db)
    }

    /// Inserts the batches of the table being loaded and handles the rows the store refuses.
    private var inserter: RowInserter {
        RowInserter(feed: feed, strict: options.parsing.strict, maxStoredErrors: options.parsing.maxStoredErrors, earlierLines: earlierLines)
    }

    /// A diff of `file`'s table: group by group when the store's group digests of the table are complete.
    private func diffLoader(for file: GTFSFile, _ db: Database) throws -> DiffLoader {
        var comparesGroups = false
        if GroupedTables.column(for: file) != nil, let existing = plan.existing, existing.tables[file] != nil {
            comparesGroups = try !existing.tablesWithRows.contains(file) || FeedGroups.exist(db, feed: feed, file: file)
        }
        let pipeline = self.pipeline
        return try DiffLoader(
            db, file: file, comparesGroups: comparesGroups, maxHeldGroupRows: options.maxHeldGroupRows, inserter: inserter, changes: changes
        ) {
            pipeline.isCancelled
        }
    }

    // MARK: - Ending

    /// After the last batch: ends the last table; in an incremental import, also the parsed tables that had
    /// no row (their stored rows are deleted by their diff) and the tables a whole feed no longer holds.
    mutating func finishTables(_ db: Database) throws {
        try endTable(db)
        state.finishFile()
        if plan.incremental {
            try finishDiffs(db)
        } else if let changes {
            // A full import stored every table it replaces whole.
            for file in GTFSFile.loadOrder where plan.replaced.contains(file) {
                try changes.reportRows(db, of: file, feed: feed, as: .insert) { pipeline.isCancelled }
            }
        }
        try checkRejectionLimit()
    }

    /// An incremental import's end: the direct tables' counts, the diffs of files without rows, the
    /// tables of files the feed no longer has.
    private mutating func finishDiffs(_ db: Database) throws {
        for file in GTFSFile.loadOrder where directTables.contains(file) {
            state.changesByTable[file] = TableChanges(inserted: state.rowsByTable[file] ?? 0)
            try changes?.reportRows(db, of: file, feed: feed, as: .insert) { pipeline.isCancelled }
        }
        for file in GTFSFile.loadOrder where plan.tablesToParse.contains(file) && state.changesByTable[file] == nil {
            var empty = try diffLoader(for: file, db)
            state.changesByTable[file] = try empty.finish(db, &state)
        }
        for file in GTFSFile.loadOrder where plan.removed.contains(file) {
            try changes?.reportRows(db, of: file, feed: feed, as: .delete) { pipeline.isCancelled }
            state.changesByTable[file] = TableChanges(deleted: try GTFSSchema.deleteRows(db, of: [file], feed: feed)[file] ?? 0)
        }
    }
}
