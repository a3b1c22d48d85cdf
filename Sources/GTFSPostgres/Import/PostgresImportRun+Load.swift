import GTFS
import GTFSStoreCore
import Synchronization

extension PostgresImportRun {
    /// The file whose rows are being sent.
    struct OpenFile {
        let table: PostgresTable
        let stream: CopyStream
        let staged: StagedTable?
        let layout: CopyLayout
        let fileName: String
        let began: ContinuousClock.Instant
        /// For a grouped file compared with the stored groups: the groups to send.
        let comparison: GroupComparison?
        /// For a grouped file sent whole: its digests, spooled until its `COPY` ends.
        var digests: GroupDigestEncoder?
        let spool: GroupSpool?
        var rows = 0
    }

    /// The files that changed, each sent with `COPY` as it is parsed; of a grouped file that the feed held,
    /// only the groups that differ (read once before, to digest them). The parse and the encoding run on a
    /// thread of their own, a few batches ahead, while this one sends: the server's COPY and the client's
    /// work overlap (one thread did both in turn, and the server waited for it).
    /// - Returns: the parse's summary.
    func load(_ plan: ImportPlan) throws -> FeedSummary {
        var parseOptions = options.parsing
        parseOptions.tables = incremental ? plan.tablesToParse : nil
        rowsStart = clock.now
        report(.loading)
        let parser = FeedParser(source: source, options: parseOptions)
        let changedGroups = comparisons.mapValues(\.changed)
        let digested = Set(GTFSFile.allCases.filter { comparisons[$0] == nil && GroupedTables.column(for: $0) != nil })
        let feedNumber = feed
        let latest = Mutex<FeedProgress?>(nil)
        // Each file's format and columns, chosen on its first batch; the parse thread alone uses them.
        let layouts = Mutex<[GTFSFile: CopyLayout]>([:])
        let channel = parser.stream(
            maxBatchesInFlight: options.maxBatchesInFlight, progress: { state in latest.withLock { $0 = state } }
        ) { batch in
            let encoded = EncodedBatch(
                batch, feed: feedNumber, changedGroups: changedGroups[batch.file], digested: digested.contains(batch.file),
                layout: layouts.withLock { $0[batch.file] })
            layouts.withLock { $0[batch.file] = encoded.layout }
            return encoded
        }
        do {
            while true {
                guard shouldContinue() else { throw CancellationError() }
                switch channel.next() {
                case .closed: throw CancellationError()
                case .end(let result):
                    let parsed = try result.get()
                    try finishFile()
                    return parsed
                case .item(let item):
                    try send(item, grouped: digested.contains(item.batch.file))
                    if let state = latest.withLock({ $0 }) { offerLoading(state) }
                }
            }
        } catch {
            channel.close()
            open?.stream.abandon(because: "the import failed")
            throw error
        }
    }

    /// Sends one encoded batch, after opening its file's `COPY` when it is the file's first.
    private func send(_ item: EncodedBatch, grouped: Bool) throws {
        let batch = item.batch
        if open?.table.file != batch.file {
            try finishFile()
            try openFile(item, grouped: grouped)
        }
        guard var current = open else { return }
        if let spool = current.spool, let runs = item.runs, current.digests != nil {
            try spool.append(current.digests?.add(runs, of: batch) ?? [])
        }
        current.rows += batch.count
        open = current
        if let (column, value) = item.overflow {
            let field = current.table.description.fields[column]
            throw GTFSError(
                .invalidValue, file: batch.fileName, line: batch.lines.first, column: field.name,
                message: "\(value) does not fit PostgreSQL's \(PostgresColumnType(field.type).sql)")
        }
        if let column = item.unsent {
            // A field whose column the header lacks holds no value or its default (see `sentColumns`).
            throw GTFSError(
                .invalidValue, file: batch.fileName, line: batch.lines.first, column: current.table.description.fields[column].name,
                message: "holds a value without a column in the file, which the store cannot send (a bug: please report it)")
        }
        try current.stream.send(item.bytes)
        filled[batch.file] = zip(filled[batch.file] ?? item.filled, item.filled).map { $0 || $1 }
        progress.rowsByTable[batch.file, default: 0] += batch.count
    }

    /// Begins the `COPY` of a file: into its new table, or into a staging table to merge.
    private func openFile(_ item: EncodedBatch, grouped: Bool) throws {
        let batch = item.batch
        let table = PostgresTable(batch.file)
        let staged = fresh ? nil : try StagedTable(table, schema: schema, feed: feed, connection: connection)
        let layout = item.layout
        let stream = try connection.beginCopy(
            staged?.copyStatement(format: layout.format, sent: layout.sent)
                ?? table.copyStatement(schema: schema, freeze: true, format: layout.format, sent: layout.sent),
            "COPY \(table.name)")
        open = OpenFile(
            table: table, stream: stream, staged: staged, layout: layout, fileName: batch.fileName, began: clock.now,
            comparison: comparisons[batch.file], digests: grouped ? GroupDigestEncoder(feed: feed, table: table) : nil,
            spool: grouped ? try GroupSpool() : nil)
        progress.table = batch.file
        try stream.send(layout.format.header)
    }

    /// Ends the open file's `COPY`, merges its staged rows, and sends its digests.
    private func finishFile() throws {
        guard let current = open else { return }
        open = nil
        try current.stream.send(current.layout.format.trailer)
        let sent = try current.stream.finish()
        var result = Loaded(rowsSent: sent)
        if let staged = current.staged {
            let merged = try staged.merge(staged: sent, fileName: current.fileName, within: current.comparison, changes: changes)
            (result.changes, result.rejected, result.rejectedGroups) = (merged.changes, merged.rejected, merged.rejectedGroups)
        } else {
            result.changes.inserted = sent
        }
        result.digested = current.comparison != nil || current.digests != nil
        result.states = current.comparison?.states
        if var digests = current.digests, let spool = current.spool {
            try spool.append(digests.finish())
            let stream = try createsSchema
                ? PostgresGroups.beginCopyIntoNewTable(current.table, schema: schema, connection: connection)
                : PostgresGroups.beginCopy(current.table, connection: connection)
            try spool.send(into: stream)
            _ = try stream.finish()
        }
        loaded[current.table.file] = result
        progress.finishedFiles.append(
            ImportProgress.FinishedFile(
                fileName: current.fileName, table: current.table.file, rows: current.rows - result.rejected.count,
                duration: clock.now - current.began))
    }

    /// After the load: the keys of new tables (rejecting rows that repeat one), the tables a file without
    /// rows empties, and the digests of every grouped file loaded.
    func finishLoad(_ parsed: FeedSummary) throws {
        if fresh {
            report(.buildingIndexes)
            for table in GTFSFile.allCases.map(PostgresTable.init) {
                let fileName = parsed.table(table.file)?.fileName ?? table.file.fileName
                let rejected = try PostgresKeys.addKey(to: table, schema: schema, fileName: fileName, connection: connection)
                if !rejected.errors.isEmpty {
                    loaded[table.file]?.rejected += rejected.errors
                    loaded[table.file]?.rejectedGroups.formUnion(rejected.groups)
                    loaded[table.file]?.changes.inserted -= rejected.errors.count
                }
                if loaded[table.file] != nil {
                    try changes?.reportRows(of: table, feed: feed, as: .insert)
                }
            }
        }
        // A file given without rows empties its table.
        for table in parsed.tables where incremental {
            guard let file = table.file, loaded[file] == nil else { continue }
            loaded[file] = Loaded(changes: TableChanges(deleted: try empty(PostgresTable(file))))
            try PostgresGroups.forget([file], schema: schema, feed: feed, connection: connection)
        }
        // The digests of every grouped file loaded, without those of groups that lost a row to a repeated key.
        for (file, load) in loaded where load.digested {
            if createsSchema {
                try PostgresGroups.recordSent(PostgresTable(file), schema: schema, feed: feed, invalid: load.rejectedGroups, connection: connection)
            } else {
                try PostgresGroups.record(
                    PostgresTable(file), schema: schema, feed: feed, invalid: load.rejectedGroups, states: load.states, connection: connection)
            }
        }
        if createsSchema { try PostgresGroups.addKey(schema: schema, connection: connection) }
    }
}
