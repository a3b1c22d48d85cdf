import Foundation
import GTFS
import GTFSImport

/// Shows an import's progress on standard error: on a terminal, one line per file redrawn in place at
/// most 10 times a second; otherwise a plain line every few seconds.
///
/// Used only on its own serial queue (the import's progress queue).
final class ProgressLine: @unchecked Sendable {
    /// Seconds between redraws on a terminal, and between plain lines otherwise.
    static let terminalInterval = Duration.milliseconds(100)
    static let plainInterval = Duration.seconds(5)

    private let isTerminal: Bool
    /// The database, for the line that says the import waits for another one.
    private let database: String
    private let start = ContinuousClock.now
    private var lastDraw: ContinuousClock.Instant?
    private var drawnFile: String?
    private var lineOpen = false
    private var last: ImportProgress?

    init(isTerminal: Bool, database: String) {
        self.isTerminal = isTerminal
        self.database = database
    }

    /// Takes a report from the import.
    func show(_ progress: ImportProgress) {
        let now = ContinuousClock.now
        if progress.phase == .waiting {
            // Said at once, terminal or log: otherwise a waiting import looks hung.
            StandardError.write((isTerminal ? "\r\u{1B}[K" : "") + "waiting for another import into \(GTFSError.displayable(database))…\n")
            return
        }
        guard isTerminal else {
            // A log, not a screen: a plain line every few seconds, nothing for a short import.
            if progress.phase != .finished, now - (lastDraw ?? start) >= Self.plainInterval {
                lastDraw = now
                StandardError.write(Self.describe(progress) + "\n")
            }
            return
        }
        let newFile = progress.phase == .loading && progress.fileName != drawnFile && drawnFile != nil
        if newFile, let last { draw(last, final: true) }  // finish the previous file's line
        self.last = progress
        if progress.phase == .finished {
            finish()
            return
        }
        let phaseChanged = progress.phase != .loading
        if !newFile && !phaseChanged, let lastDraw, now - lastDraw < Self.terminalInterval { return }
        lastDraw = now
        draw(progress, final: false)
    }

    /// Ends the open line, if any.
    func finish() {
        if isTerminal && lineOpen { StandardError.write("\n") }
        lineOpen = false
    }

    private func draw(_ progress: ImportProgress, final: Bool) {
        StandardError.write("\r\u{1B}[K" + Self.describe(progress) + (final ? "\n" : ""))
        lineOpen = !final
        drawnFile = progress.phase == .loading ? progress.fileName : drawnFile
    }

    /// `stop_times.txt  45%  2,345,678 rows  812,345 rows/s  ETA 0:04`, or the phase after loading.
    static func describe(_ progress: ImportProgress) -> String {
        switch progress.phase {
        case .loading:
            var parts = [GTFSError.displayable(progress.fileName)]
            if let fraction = progress.fractionCompleted { parts.append("\(Int(fraction * 100))%") }
            let rows = progress.table.flatMap { progress.rowsByTable[$0] } ?? 0
            parts.append("\(Format.count(rows)) rows")
            parts.append("\(Format.count(Int(progress.rowsPerSecond))) rows/s")
            if let eta = progress.estimatedTimeRemaining { parts.append("ETA \(Format.clock(eta))") }
            return parts.joined(separator: "  ")
        case .waiting: return "waiting for another import…"
        case .hashing: return "looking for changed files…"
        case .buildingIndexes: return "building indexes…"
        case .checkingReferences: return "checking references…"
        case .committing: return "committing…"
        case .finished: return "done"
        }
    }
}
