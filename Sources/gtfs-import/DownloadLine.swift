import Synchronization
import Foundation
import GTFSFetch
import GTFSStoreCore
import ToolSupport

/// Shows a download's progress on standard error: bytes, rate and, with a known size, the time left.
/// On a terminal the line is redrawn in place; in a log a plain line every few seconds. Thread-safe: the
/// fetcher reports from its task.
final class DownloadLine: Sendable {
    private let isTerminal: Bool
    private let source: String
    private let state = Locked<(start: ContinuousClock.Instant, lastPlain: ContinuousClock.Instant, open: Bool, bytes: Int64)>(
        (ContinuousClock.now, ContinuousClock.now, false, 0))

    init(isTerminal: Bool, source: String) {
        self.isTerminal = isTerminal
        self.source = source
    }

    func show(_ progress: DownloadProgress) {
        let now = ContinuousClock.now
        let text: String? = state.withLock { state in
            state.bytes = progress.bytesReceived
            if !isTerminal {
                guard now - state.lastPlain >= ProgressLine.plainInterval else { return nil }
                state.lastPlain = now
            }
            state.open = isTerminal
            return Self.describe(progress, elapsed: now - state.start, source: source)
        }
        guard let text else { return }
        StandardError.write(isTerminal ? "\r\u{1B}[K" + text : text + "\n")
    }

    /// Ends a line drawn on a terminal with the download's size and time (when the import begins, or the
    /// command ends); nothing otherwise, and nothing the second time.
    func finish() {
        let (open, elapsed, bytes) = state.withLock { state in
            defer { state.open = false }
            return (state.open, ContinuousClock.now - state.start, state.bytes)
        }
        guard isTerminal, open else { return }
        StandardError.write("\r\u{1B}[K" + "downloaded \(Self.size(bytes))  \(Format.seconds(elapsed))\n")
    }

    /// `downloading https://…  12.3 MB of 80.1 MB  4.5 MB/s  13 s left` (the size and time left when known).
    static func describe(_ progress: DownloadProgress, elapsed: Duration, source: String) -> String {
        let seconds = max(elapsed / .seconds(1), 0.001)
        let rate = Double(progress.bytesReceived) / seconds
        var parts = ["downloading \(source)", size(progress.bytesReceived)]
        if let total = progress.expectedBytes, total > 0 {
            parts[1] += " of \(size(total))"
            if rate > 0 {
                let left = min(Double(total - progress.bytesReceived) / rate, 1e9)
                parts.append("\(size(Int64(rate)))/s  \(Int(left.rounded(.up))) s left")
            }
        } else {
            parts.append("\(size(Int64(rate)))/s")
        }
        if progress.attempt > 1 { parts.append("attempt \(progress.attempt)") }
        return parts.joined(separator: "  ")
    }

    /// `80.1 MB`, `512 KB`, `120 bytes` (decimal units, as download tools show).
    static func size(_ bytes: Int64) -> String {
        switch bytes {
        case 1_000_000_000...: String(format: "%.2f GB", Double(bytes) / 1e9)
        case 1_000_000...: String(format: "%.1f MB", Double(bytes) / 1e6)
        case 1_000...: "\(bytes / 1000) KB"
        default: "\(bytes) bytes"
        }
    }
}

/// A value shared between threads under a lock.
final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    init(_ value: Value) { mutex = Mutex(value) }

    func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T { try mutex.withLock { try body(&$0) } }
}
