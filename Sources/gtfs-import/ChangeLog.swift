import Foundation
import GTFS
import GTFSImport
import Synchronization

import Platform

/// The changes of an import as JSON Lines (`--changes FILE`, and `gtfs-import diff`): one object per
/// inserted, updated or deleted row, then one that counts them per table and says whether the import
/// completed.
///
/// ```
/// {"table":"stop_times","feed":"default","change":"update","key":{"trip_id":"T1","stop_sequence":3},"columns":{"departure_time":{"old":"08:00:00","new":"08:01:00"}}}
/// {"summary":{"stop_times":{"inserted":0,"updated":1,"deleted":0}},"complete":true}
/// ```
///
/// Values are as the database stores them, except times, written as GTFS writes them (`25:03:00`). Every
/// line is written before the import commits, and its commit waits until they are (``prepareCommit()``),
/// so a committed import never lacks its change list. A regular file gets its summary and is on storage
/// by then too, under a temporary name that becomes its own once the import has committed, so a failed
/// import leaves none. A stream (standard output, a device, a FIFO) gets the summary, which says the
/// import completed, only after the commit, and after a failure a last line `{"complete":false,"error":…}`
/// instead (see ``ChangeLogTarget``).
final class ChangeLog: Sendable {
    private struct State {
        var buffer: [UInt8] = []
        var counts: [GTFSFile: (inserted: Int, updated: Int, deleted: Int)] = [:]
        var timeColumns: [GTFSFile: Set<String>] = [:]
        var failure: String?
        var summaryWritten = false
        var closed = false
    }

    /// Where the lines go: `-` for standard output.
    let path: String
    private let target: ChangeLogTarget
    private let state = Mutex(State())

    /// Opens the output (see ``ChangeLogTarget``).
    /// - Throws: a message when it cannot be opened or created.
    init(path: String) throws(ChangeLogError) {
        self.path = path
        target = try ChangeLogTarget(opening: path)
    }

    /// Whether no change was recorded.
    var isEmpty: Bool { state.withLock { $0.counts.isEmpty } }

    /// Writes one change (the import's writer thread calls it, one change at a time).
    func record(_ change: RowChange) {
        state.withLock { state in
            guard state.failure == nil else { return }
            let times = state.timeColumns[change.file] ?? {
                let names = Set(change.file.table.fields.filter { $0.type == .time }.map(\.name))
                state.timeColumns[change.file] = names
                return names
            }()
            var counts = state.counts[change.file] ?? (0, 0, 0)
            switch change.kind {
            case .insert: counts.inserted += 1
            case .update: counts.updated += 1
            case .delete: counts.deleted += 1
            }
            state.counts[change.file] = counts
            state.buffer += Self.line(change, times: times).utf8
            if state.buffer.count >= 1 << 16 { flush(&state) }
        }
    }

    /// Before the import commits: every line written; a file's summary too, and its bytes on storage.
    /// - Throws: a message when they cannot be written; the import then rolls back.
    func prepareCommit() throws(ChangeLogError) {
        let failure: String? = state.withLock { state in
            if case .file(_, let temporary, let descriptor) = target {
                writeSummary(&state)
                let code = state.failure == nil ? System.flushToStorage(descriptor) : 0
                if code != 0 { state.failure = "cannot write the changes to \(temporary): \(System.message(forErrno: code))" }
            } else {
                flush(&state)
            }
            return state.failure
        }
        if let failure { throw ChangeLogError(failure) }
    }

    /// Ends the log of an import that committed (or changed nothing): a stream gets its summary, a file
    /// its own name.
    /// - Throws: a message when the log cannot be completed; when the import committed, a file's changes
    ///   are then complete under its temporary name, which the message names.
    func finish() throws(ChangeLogError) {
        try prepareCommit()
        switch target {
        case .stream:
            let failure: String? = state.withLock { state in
                writeSummary(&state)
                closeOutput(&state)
                return state.failure
            }
            if let failure { throw ChangeLogError(failure) }
        case .file(let path, let temporary, _):
            state.withLock { closeOutput(&$0) }
            guard rename(temporary, path) == 0 else {
                throw ChangeLogError("cannot rename \(temporary) to \(path): \(System.message(forErrno: errno)); the changes are in \(temporary)")
            }
            // The new name on storage too, so that a crash now does not bring the old file back.
            let name = (path as NSString).deletingLastPathComponent
            let folder = open(name.isEmpty ? "." : name, O_RDONLY | O_CLOEXEC)
            if folder >= 0 {
                _ = System.flushToStorage(folder)
                close(folder)
            }
        }
    }

    /// Ends the log of an import that did not commit: a file is removed; a stream gets a last line that
    /// says the changes above did not happen.
    func discard(reason: String) {
        state.withLock { state in
            switch target {
            case .file(_, let temporary, _):
                closeOutput(&state)
                unlink(temporary)
            case .stream:
                guard !state.closed else { return }
                state.buffer += "{\"complete\":false,\"error\":\(Self.quoted(reason))}\n".utf8
                flush(&state)
                closeOutput(&state)
            }
        }
    }

    /// Closes the output once (a descriptor number closed twice may belong to another file by then); standard
    /// output and error stay open.
    private func closeOutput(_ state: inout State) {
        guard !state.closed else { return }
        state.closed = true
        switch target {
        case .stream(let descriptor, let closes): if closes { close(descriptor) }
        case .file(_, _, let descriptor): close(descriptor)
        }
    }

    /// The summary line, once.
    private func writeSummary(_ state: inout State) {
        guard !state.summaryWritten else { return }
        state.summaryWritten = true
        let tables = GTFSFile.loadOrder.compactMap { file -> String? in
            guard let counts = state.counts[file] else { return nil }
            return "\(Self.quoted(file.rawValue)):{\"inserted\":\(counts.inserted),\"updated\":\(counts.updated),\"deleted\":\(counts.deleted)}"
        }
        state.buffer += "{\"summary\":{\(tables.joined(separator: ","))},\"complete\":true}\n".utf8
        flush(&state)
    }

    /// One change as a line of JSON.
    private static func line(_ change: RowChange, times: Set<String>) -> String {
        var line = "{\"table\":\(quoted(change.file.rawValue)),\"feed\":\(quoted(change.feed))"
        line += ",\"change\":\"\(change.kind.rawValue)\",\"key\":{"
        line += change.key.map { "\(quoted($0.column)):\(json($0.value, time: times.contains($0.column)))" }.joined(separator: ",")
        line += "}"
        if !change.updates.isEmpty {
            line += ",\"columns\":{"
            line += change.updates.map { update in
                let time = times.contains(update.column)
                return "\(quoted(update.column)):{\"old\":\(json(update.old, time: time)),\"new\":\(json(update.new, time: time))}"
            }.joined(separator: ",")
            line += "}"
        }
        return line + "}\n"
    }

    private func flush(_ state: inout State) {
        if state.failure == nil {
            let output = target.descriptor
            let code = state.buffer.withUnsafeBytes { System.writeAll(output, $0) }
            if code != 0 { state.failure = "cannot write the changes to \(outputName): \(System.message(forErrno: code))" }
        }
        state.buffer.removeAll(keepingCapacity: true)
    }

    /// A value as JSON: as the store holds it, except times, as `HH:MM:SS`.
    private static func json(_ value: RowChange.Value, time: Bool) -> String {
        if time, case .integer(let number) = value, let seconds = Int32(exactly: number), seconds >= 0 {
            return quoted(GTFSTime(seconds: seconds).description)
        }
        return JSONLiteral.value(value)
    }

    /// `text` as a JSON string.
    static func quoted(_ text: String) -> String { JSONLiteral.string(text) }

    /// The output as messages name it.
    private var outputName: String {
        switch target {
        case .stream: path == "-" ? "standard output" : path
        case .file(_, let temporary, _): temporary
        }
    }
}

/// Why the change log could not be written.
struct ChangeLogError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) { self.description = description }
}
