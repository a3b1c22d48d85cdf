import Foundation
import GRDB
import GTFS
@testable import GTFSImport
import Synchronization
import TestSupport
import Testing

@Suite("Changes: what an import reports equals the difference of two fresh imports")
struct ChangeSetTests {
    /// A feed as rows, edited at random and written as files.
    struct Model {
        var stops: [String: (name: String, lat: Double)] = [:]
        var trips: [String: String] = [:]  // trip → route
        var stopTimes: [String: [(seconds: Int, stop: String)]] = [:]  // trip → its stop times in sequence
        var exceptions: [(date: Int, type: Int)]? = nil
        var transfers: [(from: String, to: String)]? = nil

        /// The files; `shuffled` moves rows within `stop_times.txt` (a trip's rows no longer together).
        func files(shuffled: Bool, random: inout Draws) -> [String: String] {
            var files: [String: String] = [:]
            files["agency.txt"] = "agency_id,agency_name,agency_url,agency_timezone\nA,VBB,https://vbb.de,Europe/Berlin\n"
            files["routes.txt"] = "route_id,agency_id,route_short_name,route_type\nR1,A,M4,900\nR2,A,S1,109\n"
            files["calendar.txt"] =
                "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nWD,1,1,1,1,1,0,0,20250101,20251231\n"
            files["stops.txt"] = "stop_id,stop_name,stop_lat,stop_lon\n"
                + stops.keys.sorted().map { id in "\(id),\"\(stops[id]!.name)\",\(stops[id]!.lat),13.4\n" }.joined()
            files["trips.txt"] = "route_id,service_id,trip_id\n" + trips.keys.sorted().map { "\(trips[$0]!),WD,\($0)\n" }.joined()
            var lines: [String] = []
            for trip in stopTimes.keys.sorted() {
                for (index, time) in stopTimes[trip]!.enumerated() {
                    let text = GTFSTime(seconds: Int32(time.seconds)).description
                    lines.append("\(trip),\(text),\(text),\(time.stop),\(index + 1)\n")
                }
            }
            if shuffled { lines = random.shuffled(lines) }
            files["stop_times.txt"] = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n" + lines.joined()
            if let exceptions {
                files["calendar_dates.txt"] = "service_id,date,exception_type\n" + exceptions.map { "WD,\($0.date),\($0.type)\n" }.joined()
            }
            if let transfers {
                files["transfers.txt"] = "from_stop_id,to_stop_id,transfer_type\n" + transfers.map { "\($0.from),\($0.to),2\n" }.joined()
            }
            return files
        }

        static func random(_ random: inout Draws) -> Model {
            var model = Model()
            for index in 0 ..< 40 { model.stops["S\(index)"] = ("Stop \(index), Berlin", 52.5 + Double(index) / 1000) }
            for index in 0 ..< 30 {
                let trip = "T\(index)"
                model.trips[trip] = random.chance(50) ? "R1" : "R2"
                model.stopTimes[trip] = (0 ..< random.int(2 ... 7)).map { step in
                    (6 * 3600 + index * 300 + step * 120, "S\(random.int(0 ... 39))")
                }
            }
            if random.chance(50) { model.exceptions = [(20250501, 2), (20250601, 1)] }
            if random.chance(50) { model.transfers = [("S1", "S2"), ("S3", "S4")] }
            return model
        }

        /// The next version: renamed, moved, removed and added stops; removed, added and retimed trips;
        /// a file added or removed.
        func edited(_ random: inout Draws) -> Model {
            var model = self
            for id in stops.keys.sorted() {
                if random.chance(10) { model.stops[id]?.name += " (neu)" }
                if random.chance(5) { model.stops[id]?.lat += 0.001 }
                if random.chance(5) { model.stops[id] = nil }
            }
            for index in 0 ..< random.int(0 ... 3) { model.stops["N\(index)"] = ("New \(index)", 52.6) }
            for trip in trips.keys.sorted() {
                if random.chance(10) {
                    model.trips[trip] = nil
                    model.stopTimes[trip] = nil
                } else if random.chance(20), var times = model.stopTimes[trip] {
                    let position = random.int(0 ... times.count - 1)
                    times[position].seconds += 60
                    if random.chance(30) { times.append((times[times.count - 1].seconds + 120, "S0")) }
                    if random.chance(30) && times.count > 2 { times.removeLast() }
                    model.stopTimes[trip] = times
                } else if random.chance(5) {
                    model.trips[trip] = model.trips[trip] == "R1" ? "R2" : "R1"
                }
            }
            for index in 0 ..< random.int(0 ... 2) {
                model.trips["X\(index)"] = "R1"
                model.stopTimes["X\(index)"] = [(9 * 3600, "S5"), (9 * 3600 + 300, "S6")]
            }
            if random.chance(30) { model.exceptions = model.exceptions == nil ? [(20251224, 2)] : nil }
            if random.chance(30) { model.transfers = model.transfers == nil ? [("S7", "S8")] : nil }
            return model
        }
    }

    /// Every row of a feed by table and key, as the store holds it.
    static func rows(_ store: GTFSStore) throws -> [GTFSFile: [[RowChange.Value]: [RowChange.Value]]] {
        try store.pool.read { db in
            var result: [GTFSFile: [[RowChange.Value]: [RowChange.Value]]] = [:]
            for file in GTFSFile.allCases {
                let table = StoreTable(file)
                let key = ChangeRecorder.keyColumns(of: file)
                var rows: [[RowChange.Value]: [RowChange.Value]] = [:]
                for row in try GRDB.Row.fetchAll(db, sql: "SELECT \((key + table.columns).joined(separator: ", ")) FROM \(table.name)") {
                    let values = (0 ..< row.count).map { Self.value(row[$0] as DatabaseValue) }
                    rows[Array(values[..<key.count])] = Array(values[key.count...])
                }
                result[file] = rows
            }
            return result
        }
    }

    static func value(_ value: DatabaseValue) -> RowChange.Value {
        switch value.storage {
        case .null: .null
        case .int64(let number): .integer(number)
        case .double(let number): .real(number)
        case .string(let text): .text(text)
        case .blob(let data): .text(String(decoding: data, as: UTF8.self))
        }
    }

    /// The changes that turn `old` into `new`, computed from their rows alone.
    static func difference(
        _ old: [GTFSFile: [[RowChange.Value]: [RowChange.Value]]], _ new: [GTFSFile: [[RowChange.Value]: [RowChange.Value]]]
    ) -> Set<RowChange> {
        var changes = Set<RowChange>()
        for file in GTFSFile.allCases {
            let keyColumns = ChangeRecorder.keyColumns(of: file)
            let columns = StoreTable(file).columns
            let before = old[file] ?? [:]
            let after = new[file] ?? [:]
            func key(_ values: [RowChange.Value]) -> [RowChange.Field] {
                zip(keyColumns, values).map { RowChange.Field(column: $0, value: $1) }
            }
            for (values, row) in before where after[values] == nil {
                _ = row
                changes.insert(RowChange(kind: .delete, file: file, feed: "default", key: key(values)))
            }
            for (values, row) in after {
                guard let previous = before[values] else {
                    changes.insert(RowChange(kind: .insert, file: file, feed: "default", key: key(values)))
                    continue
                }
                let updates = columns.indices.filter { previous[$0] != row[$0] }.map {
                    RowChange.Update(column: columns[$0], old: previous[$0], new: row[$0])
                }
                if !updates.isEmpty { changes.insert(RowChange(kind: .update, file: file, feed: "default", key: key(values), updates: updates)) }
            }
        }
        return changes
    }

    static func importFeed(_ files: [String: String], into path: String, folder: TemporaryFolder, name: String, full: Bool = false)
        throws -> (summary: ImportSummary, changes: [RowChange])
    {
        let collected = Mutex<[RowChange]>([])
        var options = ImportOptions()
        options.update = full ? .full : .automatic
        options.changeHandler = { change in collected.withLock { $0.append(change) } }
        let store = try GTFSStore(path: path)
        defer { try? store.close() }
        let directory = try FeedFiles.directory(files, in: folder, name: name)
        let summary = try store.importFeedSynchronously(from: try FeedSource(path: directory), options: options)
        return (summary, collected.withLock { $0 })
    }

    @Test("Seeded random edits: the incremental import's changes are the difference, row for row", arguments: 1 ... 8)
    func randomEdits(seed: UInt64) throws {
        var random = Draws(seed: seed)
        let old = Model.random(&random)
        let new = old.edited(&random)
        let oldFiles = old.files(shuffled: random.chance(30), random: &random)
        let newFiles = new.files(shuffled: random.chance(30), random: &random)
        let folder = try TemporaryFolder()

        _ = try Self.importFeed(oldFiles, into: folder.file("a.sqlite"), folder: folder, name: "old-a")
        let (summary, changes) = try Self.importFeed(newFiles, into: folder.file("a.sqlite"), folder: folder, name: "new-a")
        #expect(summary.kind == .incremental)

        _ = try Self.importFeed(oldFiles, into: folder.file("b.sqlite"), folder: folder, name: "old-b")
        _ = try Self.importFeed(newFiles, into: folder.file("c.sqlite"), folder: folder, name: "new-c")
        let expected = Self.difference(
            try Self.rows(try GTFSStore(path: folder.file("b.sqlite"))), try Self.rows(try GTFSStore(path: folder.file("c.sqlite"))))
        #expect(!expected.isEmpty)
        #expect(changes.count == Set(changes).count, "a change reported twice")
        #expect(Set(changes) == expected, "missing: \(expected.subtracting(changes).map(\.description)), extra: \(Set(changes).subtracting(expected).map(\.description))")
        // The summary counts what the changes say.
        for file in GTFSFile.allCases {
            let counted = summary.table(file)?.changes ?? TableChanges()
            let reported = changes.filter { $0.file == file }
            #expect(counted.inserted == reported.filter { $0.kind == .insert }.count, "\(file)")
            #expect(counted.updated == reported.filter { $0.kind == .update }.count, "\(file)")
            #expect(counted.deleted == reported.filter { $0.kind == .delete }.count, "\(file)")
        }
    }

    @Test("Changes are reported only for atomic imports")
    func batchedRefused() {
        var options = ImportOptions()
        options.changeHandler = { _ in }
        options.mode = .batched(rowsPerCommit: 1000)
        #expect(throws: ImportError.self) { try options.validate() }
        options.mode = .atomic
        #expect(throws: Never.self) { try options.validate() }
    }

    @Test("A full import reports every stored row it removes and every row it stores; an unchanged feed none")
    func fullAndUnchanged() throws {
        var random = Draws(seed: 42)
        let files = Model.random(&random).files(shuffled: false, random: &random)
        let folder = try TemporaryFolder()
        let path = folder.file("full.sqlite")
        let first = try Self.importFeed(files, into: path, folder: folder, name: "first")
        let rows = first.summary.rowsStored
        #expect(first.changes.count == rows && first.changes.allSatisfy { $0.kind == .insert && $0.feed == "default" })
        let stopTime = try #require(first.changes.first { $0.file == .stopTimes })
        #expect(stopTime.key.map(\.column) == ["trip_id", "stop_sequence"])

        let again = try Self.importFeed(files, into: path, folder: folder, name: "again")
        #expect(again.changes.isEmpty)

        let full = try Self.importFeed(files, into: path, folder: folder, name: "full", full: true)
        #expect(full.changes.filter { $0.kind == .delete }.count == rows)
        #expect(full.changes.filter { $0.kind == .insert }.count == rows)
        #expect(Set(full.changes.filter { $0.kind == .delete }.map(\.key)) == Set(first.changes.map(\.key)))
    }
}
