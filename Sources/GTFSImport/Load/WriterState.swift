import Foundation
import GTFS

/// The writer's counts during an import: rows stored and refused per file, commits, and what the parser
/// reported at the end.
struct WriterState {
    let start: ContinuousClock.Instant
    /// When the import started, for `imports`.
    let startDate: Date
    /// When writing began (after an incremental import's hashing): the start of the load phase.
    let loadStart: ContinuousClock.Instant = .now
    /// When rows began to go in (after a full import removed the feed's old rows), for the rates.
    var rowsStart: ContinuousClock.Instant?
    /// Rows stored per table, for progress.
    private(set) var rowsByTable: [GTFSFile: Int] = [:]
    /// Rows stored and refused per file name.
    private var storedByFile: [String: Int] = [:]
    private var refusedByFile: [String: Int] = [:]
    private var refusalsByFile: [String: [GTFSError]] = [:]
    /// The kept refusal errors that do not name their key's earlier line yet, by position among their file's.
    private var unresolvedByFile: [String: [(position: Int, key: UnresolvedKey)]] = [:]
    /// Rows stored since the last commit (batched mode).
    private(set) var rowsSinceCommit = 0
    /// Rows committed per table, and the file being loaded with its committed rows (batched mode).
    private var committedByTable: [GTFSFile: Int] = [:]
    private var committedByFile: [String: Int] = [:]
    /// The file being stored, and its table.
    private(set) var currentFile = ""
    private(set) var currentTable: GTFSFile?
    /// When the current file's first batch arrived.
    private var currentFileStart: ContinuousClock.Instant = .now
    /// The files loaded completely, for progress.
    private(set) var finishedFiles: [ImportProgress.FinishedFile] = []
    /// The parser's summary, once it ended.
    var feedSummary: FeedSummary?
    /// What the import changed per table: the diffs' counts, or a full import's deletes and inserts.
    var changesByTable: [GTFSFile: TableChanges] = [:]
    /// Time spent comparing and applying diffs.
    var diffDuration: Duration = .zero

    init(start: ContinuousClock.Instant, startDate: Date = Date()) {
        self.start = start
        self.startDate = startDate
    }

    /// The rows of the file being stored that the store kept and refused so far.
    var currentFileCounts: (stored: Int, refused: Int) {
        (storedByFile[currentFile] ?? 0, refusedByFile[currentFile] ?? 0)
    }

    /// The first refusal error kept for the file being stored.
    var currentFileFirstRefusal: GTFSError? { refusalsByFile[currentFile]?.first }

    /// How many more refusal errors of `fileName` the summary keeps.
    func errorRoom(in fileName: String, maxErrors: Int) -> Int {
        max(0, maxErrors - (refusalsByFile[fileName]?.count ?? 0))
    }

    /// Counts one stored batch: `count` rows stored, `refused` refused, of which `errors` are kept.
    mutating func stored(_ count: Int, refused: Int, errors: [RefusalError], of batch: RecordBatch) {
        kept(count)
        rowsSinceCommit += count
        guard refused > 0 else { return }
        refusedByFile[batch.fileName, default: 0] += refused
        for refusal in errors {
            if let key = refusal.unresolved {
                unresolvedByFile[batch.fileName, default: []].append((refusalsByFile[batch.fileName]?.count ?? 0, key))
            }
            refusalsByFile[batch.fileName, default: []].append(refusal.error)
        }
    }

    /// The kept refusals of `fileName` whose key first appeared in an earlier batch, at a line still to be found.
    func unresolvedRefusals(of fileName: String) -> [UnresolvedKey] {
        unresolvedByFile[fileName]?.map(\.key) ?? []
    }

    /// Names in each unresolved refusal of `fileName` the line its key first appeared on, from `lines` (a
    /// line not before the refused row's is not that one); the others keep saying "an earlier row". None
    /// is unresolved afterwards.
    mutating func resolveRefusals(of fileName: String, lines: [KeyValues: Int]) {
        guard let unresolved = unresolvedByFile.removeValue(forKey: fileName), var errors = refusalsByFile[fileName] else { return }
        for (position, key) in unresolved where errors.indices.contains(position) {
            guard let line = lines[key.values], line < key.line else { continue }
            errors[position] = DuplicateKeys.error(errors[position], earlierLine: line)
        }
        refusalsByFile[fileName] = errors
    }

    /// Starts counting the rows of `fileName`, which fill `table`.
    /// Records the rows a full import removed per table: from the database itself, or from the file that
    /// a new one replaces.
    mutating func countDeleted(_ rows: [GTFSFile: Int]) {
        for (file, count) in rows where count > 0 { changesByTable[file, default: TableChanges()].deleted = count }
    }

    mutating func beginFile(_ fileName: String, table: GTFSFile) {
        currentFile = fileName
        currentTable = table
        currentFileStart = .now
    }

    /// Counts rows of the current file that the store holds for this import: rows just stored, or rows an
    /// incremental import kept without writing them (their group is unchanged).
    mutating func kept(_ count: Int) {
        guard let table = currentTable else { return }
        rowsByTable[table, default: 0] += count
        storedByFile[currentFile, default: 0] += count
    }

    /// Marks the current file as loaded completely (its table ended).
    mutating func finishFile() {
        guard let table = currentTable, finishedFiles.last?.fileName != currentFile else { return }
        finishedFiles.append(
            ImportProgress.FinishedFile(
                fileName: currentFile, table: table, rows: storedByFile[currentFile] ?? 0, duration: .now - currentFileStart))
    }

    /// Marks everything stored so far as committed.
    mutating func commit() {
        committedByTable = rowsByTable
        committedByFile = storedByFile
        rowsSinceCommit = 0
    }

    /// What stayed committed.
    var stopPoint: ImportStopPoint {
        ImportStopPoint(
            fileName: currentFile, rowsCommitted: committedByFile[currentFile] ?? 0, rowsCommittedByTable: committedByTable)
    }

    /// A progress snapshot; `totalBytes` is `nil` when the input's size is unknown.
    func progress(phase: ImportProgress.Phase, bytesRead: Int64 = 0, totalBytes: Int64? = nil) -> ImportProgress {
        var progress = ImportProgress()
        progress.phase = phase
        progress.fileName = currentFile
        progress.table = currentTable
        progress.bytesRead = bytesRead
        progress.totalBytes = totalBytes
        progress.rowsByTable = rowsByTable
        progress.finishedFiles = finishedFiles
        let now = ContinuousClock.now
        progress.elapsed = now - start
        progress.loadingElapsed = rowsStart.map { now - $0 } ?? .zero
        return progress
    }

    /// The per-file results: the parser's counts joined with the writer's.
    func tableImports(_ feed: FeedSummary, maxErrors: Int) -> [TableImport] {
        feed.tables.compactMap { parsed in
            guard let file = parsed.file else { return nil }
            var table = TableImport(fileName: parsed.fileName, file: file)
            table.rowsRead = parsed.rowsRead
            table.rowsStored = storedByFile[parsed.fileName] ?? 0
            table.rowsRejected = parsed.rowsRejected + (refusedByFile[parsed.fileName] ?? 0)
            table.errors = Array((parsed.errors + (refusalsByFile[parsed.fileName] ?? [])).prefix(maxErrors))
            table.warnings = parsed.warnings
            table.warningCount = parsed.warningCount
            table.bytesRead = parsed.bytesRead
            table.contentHash = parsed.contentHash
            return table
        }
    }
}
