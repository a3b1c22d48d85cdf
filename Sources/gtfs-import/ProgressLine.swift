import Dispatch
import Foundation
import GTFS
import GTFSImport
import ToolSupport

/// Shows an import's progress on standard error.
///
/// On a terminal: every loaded file ends with a final line (`stops.txt  12,793 rows  0.31 s  done`), every
/// later phase that took a second or more with one (`building indexes  2.31 s`); the line in progress is
/// redrawn in place at most 10 times a second, and twice a second while a long phase sends no reports.
/// Otherwise (a log): a plain line every few seconds, nothing for a short import.
///
/// Used only on its own serial queue (the import's progress queue), which its timer also uses.
final class ProgressLine: @unchecked Sendable {
    /// Time between redraws on a terminal, and between plain lines otherwise.
    static let terminalInterval = Duration.milliseconds(100)
    static let plainInterval = Duration.seconds(5)
    /// Phases shorter than this leave no line behind.
    static let phaseLineThreshold = Duration.seconds(1)

    private let isTerminal: Bool
    /// The database, for the line that says the import waits for another one.
    private let database: String
    private let start = ContinuousClock.now
    private var lastDraw: ContinuousClock.Instant?
    private var lineOpen = false
    /// The latest report, and when it arrived (to advance a phase's clock between reports).
    private var last: (progress: ImportProgress, received: ContinuousClock.Instant)?
    /// Finished files already printed.
    private var printedFiles = 0
    /// The phase after loading being shown, and the import's elapsed time when it began.
    private var phase: (phase: ImportProgress.Phase, began: Duration)?
    private var timer: (any DispatchSourceTimer)?

    /// - Parameter queue: the queue `show(_:)` and `finish()` are called on.
    init(isTerminal: Bool, database: String, queue: DispatchQueue) {
        self.isTerminal = isTerminal
        self.database = database
        guard isTerminal else { return }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + .milliseconds(500), repeating: .milliseconds(500))
        timer.setEventHandler { [weak self] in self?.tick() }
        timer.resume()
        self.timer = timer
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
                StandardError.write(Self.describe(progress, inPhase: .zero) + "\n")
            }
            return
        }
        last = (progress, now)
        var wroteFinal = false
        for file in progress.finishedFiles.dropFirst(printedFiles) {
            writeFinal(Self.describe(file))
            wroteFinal = true
        }
        printedFiles = max(printedFiles, progress.finishedFiles.count)
        if let shown = phase, shown.phase != progress.phase {
            let duration = progress.elapsed - shown.began
            if duration >= Self.phaseLineThreshold {
                writeFinal(Self.label(shown.phase) + "  " + Format.seconds(duration))
                wroteFinal = true
            }
            phase = nil
        }
        if progress.phase == .finished {
            finish()
            return
        }
        var phaseBegan = false
        if progress.phase != .loading && phase == nil {
            phase = (progress.phase, progress.elapsed)
            phaseBegan = true
        }
        if !wroteFinal && !phaseBegan, let lastDraw, now - lastDraw < Self.terminalInterval { return }
        drawLive(now)
    }

    /// Ends the open line, if any, and stops redrawing.
    func finish() {
        timer?.cancel()
        timer = nil
        if isTerminal && lineOpen { StandardError.write("\r\u{1B}[K") }
        lineOpen = false
    }

    /// Redraws a phase's line between reports, so that its clock moves.
    private func tick() {
        guard phase != nil, lineOpen else { return }
        drawLive(.now)
    }

    private func drawLive(_ now: ContinuousClock.Instant) {
        guard let last else { return }
        lastDraw = now
        let inPhase = phase.map { last.progress.elapsed - $0.began + (now - last.received) } ?? .zero
        StandardError.write("\r\u{1B}[K" + Self.describe(last.progress, inPhase: inPhase))
        lineOpen = true
    }

    private func writeFinal(_ text: String) {
        StandardError.write("\r\u{1B}[K" + text + "\n")
        lineOpen = false
    }

    /// `stop_times.txt  2,345,678 rows  812,345 rows/s  input 45%  ETA 0:04` while loading (the share is of
    /// the whole input), `building indexes…  3 s` in a later phase.
    static func describe(_ progress: ImportProgress, inPhase: Duration) -> String {
        guard progress.phase == .loading else {
            let seconds = Int(inPhase.components.seconds)
            return label(progress.phase) + "…" + (seconds > 0 ? "  \(seconds) s" : "")
        }
        var parts = [GTFSError.displayable(progress.fileName)]
        let rows = progress.table.flatMap { progress.rowsByTable[$0] } ?? 0
        parts.append("\(Format.count(rows)) rows")
        parts.append("\(Format.count(Int(progress.rowsPerSecond))) rows/s")
        if let fraction = progress.fractionCompleted { parts.append("input \(Int(fraction * 100))%") }
        if let eta = progress.estimatedTimeRemaining { parts.append("ETA \(Format.clock(eta))") }
        return parts.joined(separator: "  ")
    }

    /// `stops.txt               12,793 rows    0.31 s  done`.
    static func describe(_ file: ImportProgress.FinishedFile) -> String {
        let name = GTFSError.displayable(file.fileName)
        let rows = Format.count(file.rows)
        let seconds = Format.seconds(file.duration)
        return name.padding(toLength: max(name.count, 24), withPad: " ", startingAt: 0)
            + String(repeating: " ", count: max(0, 11 - rows.count)) + rows + " rows  "
            + String(repeating: " ", count: max(0, 8 - seconds.count)) + seconds + "  done"
    }

    /// What a phase is called on its line.
    static func label(_ phase: ImportProgress.Phase) -> String {
        switch phase {
        case .waiting: "waiting for another import"
        case .hashing: "looking for changed files"
        case .removingRows: "removing the feed's old rows"
        case .loading: "loading"
        case .buildingIndexes: "building indexes"
        case .checkingReferences: "checking references"
        case .committing: "committing"
        case .finished: "done"
        }
    }
}
