package import GTFS

/// What an import will do, decided before it writes: full or incremental, the tables it replaces, the
/// files it can skip because the store holds their exact content, and the tables a whole feed dropped.
package struct ImportPlan {
    /// The tables the input holds.
    package let imported: Set<GTFSFile>
    /// The store's version of the feed, when it holds one.
    package let existing: FeedState?
    /// Whether the import applies a diff.
    package let incremental: Bool
    /// Whether the input replaces every table of the feed (a whole feed) or only its own.
    package let replaceAll: Bool
    /// Files whose content hash matches the stored version, by table.
    package private(set) var unchanged: [GTFSFile: (fileName: String, hash: String)] = [:]
    /// Raw bytes of the files hashed by ``findUnchangedFiles(in:stored:options:shouldContinue:)``.
    package private(set) var hashedBytes: Int64 = 0
    /// The hashes of zip entries' stored bytes computed while planning, by file name.
    package private(set) var storedBytesHashes: [String: String] = [:]
    /// The hashing of the files assumed unchanged by ``assumeUnchangedFiles(in:stored:options:shouldContinue:)``,
    /// which must confirm them before the import commits or reports a change.
    package var confirmation: HashConfirmation?

    /// The end of an import whose plan assumed a file unchanged that was not.
    package struct Outdated: Error {
        package init() {}
    }

    package init(imported: Set<GTFSFile>, existing: FeedState?, incremental: Bool, replaceAll: Bool) {
        self.imported = imported
        self.existing = existing
        self.incremental = incremental
        self.replaceAll = replaceAll
    }

    /// The tables whose rows the import replaces (a full import) or may change (an incremental one).
    package var replaced: [GTFSFile] { GTFSFile.allCases.filter { replaceAll || imported.contains($0) } }

    /// The tables to read and parse.
    package var tablesToParse: Set<GTFSFile> { imported.subtracting(unchanged.keys) }

    /// The tables a full import keeps a `replace` change for (``ImportOptions/keepsChanges``): those it
    /// replaces that it loaded or that held the feed's rows, in load order.
    /// - Parameter loaded: the tables the import loaded a file into.
    package func keptReplacements(loaded: Set<GTFSFile>) -> [GTFSFile] {
        GTFSFile.loadOrder.filter { file in
            replaced.contains(file) && (loaded.contains(file) || (existing?.tablesWithRows.contains(file) ?? false))
        }
    }

    /// Tables of the stored feed that a whole new feed lacks: an incremental import deletes their rows.
    package var removed: Set<GTFSFile> {
        guard incremental, replaceAll, let existing else { return [] }
        return existing.tablesWithRows.union(existing.tables.keys).subtracting(imported)
    }

    /// Whether a re-import should build the feed anew rather than write its changes row by row: when the
    /// rows the row-level path would compare and write (`touchedRows`) pass `share` of the rows the store
    /// holds of the feed, and ``rebuildFloor``. A store measures its own crossover (Benchmarks/README.md,
    /// "Where row by row stops paying") and passes it here: the rule is the same for every store.
    package func rebuilds(touchedRows: Int, share: Double) -> Bool {
        guard incremental, let existing, touchedRows > Self.rebuildFloor else { return false }
        let stored = existing.tables.values.reduce(0) { $0 + $1.rowsStored }
        return Double(touchedRows) > share * Double(stored)
    }

    /// Below this many rows to compare a re-import is written row by row whatever their share: it takes
    /// half a second or so, and its summary tells each row's change, which a rebuild cannot.
    package static let rebuildFloor = 100_000

    /// This plan as a full import of the same files: what a re-import that ``rebuilds(touchedRows:share:)`` writes.
    package func rebuilt() -> ImportPlan {
        ImportPlan(imported: imported, existing: existing, incremental: false, replaceAll: replaceAll)
    }

    /// Whether the input is the stored version exactly, so nothing needs to be read or written.
    package var isNoChange: Bool { incremental && tablesToParse.isEmpty && removed.isEmpty }

    /// Hashes each file the store has a content hash for (the first file per table, as the parser reads
    /// them) and marks those that match; a zip entry whose stored (compressed) bytes hash as the store
    /// recorded is not inflated to be hashed. Standard input, a pipe or a device cannot be read twice: its
    /// table is always parsed. A zip entry whose declared CRC-32 differs from the stored one has changed:
    /// it is parsed without being hashed first.
    ///
    /// - Throws: ``GTFSError`` when a file cannot be read, `CancellationError`.
    package mutating func findUnchangedFiles(
        in source: FeedSource, stored: FeedState, options: ParseOptions, shouldContinue: () -> Bool
    ) throws {
        _ = try scanFiles(in: source, stored: stored, options: options, hashingMatchingCRC32: true, shouldContinue: shouldContinue)
    }

    /// As ``findUnchangedFiles(in:stored:options:shouldContinue:)``, but a zip entry whose declared CRC-32
    /// equals the stored one is marked unchanged without being hashed here: it is returned, with the
    /// stored hash, for a ``HashConfirmation`` to hash while the import runs.
    ///
    /// - Throws: ``GTFSError`` when a file cannot be read, `CancellationError`.
    package mutating func assumeUnchangedFiles(
        in source: FeedSource, stored: FeedState, options: ParseOptions, shouldContinue: () -> Bool
    ) throws -> [(entry: FeedEntry, hash: String)] {
        try scanFiles(in: source, stored: stored, options: options, hashingMatchingCRC32: false, shouldContinue: shouldContinue)
    }

    private mutating func scanFiles(
        in source: FeedSource, stored: FeedState, options: ParseOptions, hashingMatchingCRC32: Bool,
        shouldContinue: () -> Bool
    ) throws -> [(entry: FeedEntry, hash: String)] {
        var assumed: [(entry: FeedEntry, hash: String)] = []
        var seen = Set<GTFSFile>()
        for entry in try source.entries() {
            guard let table = entry.table, imported.contains(table), seen.insert(table).inserted, entry.isRereadable,
                let storedHash = stored.tables[table]?.contentHash
            else { continue }
            if let crc = entry.declaredCRC32, let storedCRC = stored.tables[table]?.contentCRC32 {
                if crc != storedCRC { continue }
                // The same stored bytes: the same content, without inflating it.
                let storedBytesHash = try entry.storedBytesHash()
                storedBytesHashes[entry.fileName] = storedBytesHash
                if let storedBytes = stored.tables[table]?.storedHash, storedBytesHash == storedBytes {
                    hashedBytes += entry.byteCount ?? 0
                    unchanged[table] = (entry.fileName, storedHash)
                    continue
                }
                if !hashingMatchingCRC32 {
                    assumed.append((entry, storedHash))
                    hashedBytes += entry.byteCount ?? 0
                    unchanged[table] = (entry.fileName, storedHash)
                    continue
                }
            }
            let hash = try entry.contentHash(
                chunkSize: options.chunkSize, maxLineLength: options.maxLineLength, shouldContinue: shouldContinue)
            hashedBytes += entry.byteCount ?? 0
            if hash == storedHash { unchanged[table] = (entry.fileName, hash) }
        }
        return assumed
    }

    /// The `feed_tables` row of a file the import loaded: its counts and content hash, the CRC-32 its zip
    /// declared and the hash of its stored bytes, with which the next import skips it without inflating it.
    package func recordedState(of table: TableImport, entry: FeedEntry?) throws -> TableState {
        TableState(
            contentHash: table.contentHash, rowsRead: table.rowsRead, rowsStored: table.rowsStored, rowsRejected: table.rowsRejected,
            contentCRC32: entry?.declaredCRC32, storedHash: try storedBytesHashes[table.fileName] ?? entry?.storedBytesHash())
    }

    /// The files skipped as unchanged whose stored bytes hash otherwise than recorded (the same content,
    /// compressed otherwise than last time): the hash to record now.
    /// - Parameter entries: the source's files by name.
    package func renewedStoredHashes(entries: [String: FeedEntry]) throws -> [(file: GTFSFile, hash: String)] {
        try unchanged.compactMap { file, skipped in
            guard let hash = try storedBytesHashes[skipped.fileName] ?? entries[skipped.fileName]?.storedBytesHash(),
                hash != existing?.tables[file]?.storedHash
            else { return nil }
            return (file, hash)
        }
    }

    /// The summary entries of the files skipped as unchanged, with the counts of the import that stored them.
    package func unchangedImports() -> [TableImport] {
        unchanged.map { file, skipped in
            var table = TableImport(fileName: skipped.fileName, file: file)
            let state = existing?.tables[file]
            table.rowsRead = state?.rowsRead ?? 0
            table.rowsStored = state?.rowsStored ?? 0
            table.rowsRejected = state?.rowsRejected ?? 0
            table.changes = TableChanges(unchanged: table.rowsStored)
            table.contentHash = skipped.hash
            table.isUnchangedFile = true
            return table
        }.sorted(by: Self.loadOrder)
    }

    /// The summary entries: the parsed files with their changes, the skipped ones, and tables that only
    /// lost rows (a whole feed without that file), in load order.
    package func summaryTables(_ parsed: [TableImport], changes: [GTFSFile: TableChanges]) -> [TableImport] {
        var tables = parsed.map { table in
            var table = table
            table.changes = changes[table.file] ?? TableChanges()
            return table
        }
        tables += unchangedImports()
        let listed = Set(tables.map(\.file))
        for (file, change) in changes where !listed.contains(file) && change.deleted > 0 {
            var table = TableImport(fileName: file.fileName, file: file)
            table.changes = change
            tables.append(table)
        }
        return tables.sorted(by: Self.loadOrder)
    }

    private static func loadOrder(_ a: TableImport, _ b: TableImport) -> Bool {
        (GTFSFile.loadOrder.firstIndex(of: a.file) ?? 0) < (GTFSFile.loadOrder.firstIndex(of: b.file) ?? 0)
    }
}
