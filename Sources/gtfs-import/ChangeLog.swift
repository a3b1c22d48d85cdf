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
/// Values are as the database stores them, except times, written as GTFS writes them (`25:03:00`). A file
/// is written under a temporary name and gets its own only when the import has committed, so a failed
/// import leaves none; standard output gets a last line `{"complete":false,"error":…}` instead.
final class ChangeLog: Sendable {
    private struct State {
        var output: Int32
        var buffer: [UInt8] = []
        var counts: [GTFSFile: (inserted: Int, updated: Int, deleted: Int)] = [:]
        var timeColumns: [GTFSFile: Set<String>] = [:]
        var failure: String?
    }

    /// Where the lines go: `-` for standard output.
    let path: String
    private let temporaryPath: String?
    private let state: Mutex<State>

    /// Opens the output: standard output for `-`, else a new temporary file next to `path`.
    /// - Throws: a message when the file cannot be created.
    init(path: String) throws(ChangeLogError) {
        self.path = path
        guard path != "-" else {
            temporaryPath = nil
            state = Mutex(State(output: STDOUT_FILENO))
            return
        }
        let temporary = path + ".partial-" + String(UInt32.random(in: 0 ... .max), radix: 16)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw ChangeLogError("cannot create \(temporary): \(System.message(forErrno: errno))") }
        temporaryPath = temporary
        state = Mutex(State(output: descriptor))
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
            var line = "{\"table\":\(Self.quoted(change.file.rawValue)),\"feed\":\(Self.quoted(change.feed))"
            line += ",\"change\":\"\(change.kind.rawValue)\",\"key\":{"
            line += change.key.map { "\(Self.quoted($0.column)):\(Self.json($0.value, time: times.contains($0.column)))" }.joined(separator: ",")
            line += "}"
            if !change.updates.isEmpty {
                line += ",\"columns\":{"
                line += change.updates.map { update in
                    let time = times.contains(update.column)
                    return "\(Self.quoted(update.column)):{\"old\":\(Self.json(update.old, time: time)),\"new\":\(Self.json(update.new, time: time))}"
                }.joined(separator: ",")
                line += "}"
            }
            line += "}\n"
            state.buffer += line.utf8
            if state.buffer.count >= 1 << 16 { Self.flush(&state) }
        }
    }

    /// Ends the log of a committed import: the summary line, and the file under its own name.
    /// - Throws: a message when the file cannot be written or renamed.
    func finish() throws(ChangeLogError) {
        let failure: String? = state.withLock { state in
            let tables = GTFSFile.loadOrder.compactMap { file -> String? in
                guard let counts = state.counts[file] else { return nil }
                return "\(Self.quoted(file.rawValue)):{\"inserted\":\(counts.inserted),\"updated\":\(counts.updated),\"deleted\":\(counts.deleted)}"
            }
            state.buffer += "{\"summary\":{\(tables.joined(separator: ","))},\"complete\":true}\n".utf8
            Self.flush(&state)
            return state.failure
        }
        if let failure {
            discard(reason: failure)
            throw ChangeLogError(failure)
        }
        guard let temporaryPath else { return }
        state.withLock { state in
            let code = System.flushToStorage(state.output)
            if code != 0 { state.failure = "cannot write \(temporaryPath): \(System.message(forErrno: code))" }
            close(state.output)
        }
        if let failure = state.withLock({ $0.failure }) {
            unlink(temporaryPath)
            throw ChangeLogError(failure)
        }
        guard rename(temporaryPath, path) == 0 else {
            let message = "cannot rename \(temporaryPath) to \(path): \(System.message(forErrno: errno))"
            unlink(temporaryPath)
            throw ChangeLogError(message)
        }
    }

    /// Ends the log of an import that did not commit: its file is removed; standard output gets a last
    /// line that says the changes above did not happen.
    func discard(reason: String) {
        state.withLock { state in
            if let temporaryPath {
                close(state.output)
                unlink(temporaryPath)
            } else {
                state.buffer += "{\"complete\":false,\"error\":\(Self.quoted(reason))}\n".utf8
                Self.flush(&state)
            }
        }
    }

    private static func flush(_ state: inout State) {
        if state.failure == nil {
            let output = state.output
            let code = state.buffer.withUnsafeBytes { System.writeAll(output, $0) }
            if code != 0 { state.failure = "cannot write the changes: \(System.message(forErrno: code))" }
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
}

/// Why the change log could not be written.
struct ChangeLogError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) { self.description = description }
}
