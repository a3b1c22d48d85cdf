import Foundation
import GRDB
import GTFS
import LineReader
@testable import GTFSImport
@testable import GTFSStoreCore
import TestSupport
import Testing

/// Incremental imports that compare grouped tables (stop_times by trip, calendar_dates by service) group
/// by group through `feed_groups`.
@Suite("Group digests of incremental imports")
struct GroupDiffTests {
    /// One stop_times row of the generated versions.
    struct StopTimeRow: Equatable {
        var trip: String
        var sequence: Int
        var minutes: Int
        var stop: Int

        var line: String {
            let time = GTFSTime(seconds: Int32(6 * 3600 + minutes * 60)).description
            return "\(trip),\(time),\(time),S\(stop),\(sequence)\n"
        }
    }

    /// A first version: trips of 1 to 8 stops.
    static func firstVersion(_ random: inout SeededGenerator) -> [StopTimeRow] {
        var rows: [StopTimeRow] = []
        for trip in 0 ..< 40 {
            for sequence in 1 ... Int.random(in: 1 ... 8, using: &random) {
                rows.append(StopTimeRow(trip: "T\(trip)", sequence: sequence, minutes: trip * 7 + sequence * 2, stop: (trip + sequence) % 20))
            }
        }
        return rows
    }

    /// The next version: some rows retimed, deleted or followed by a new row, whole trips dropped, new
    /// trips, and now and then a row repeating an earlier row's key (the store refuses it).
    static func nextVersion(of rows: [StopTimeRow], number: Int, _ random: inout SeededGenerator) -> [StopTimeRow] {
        var next: [StopTimeRow] = []
        let dropped = Set(rows.map(\.trip).filter { _ in Double.random(in: 0 ..< 1, using: &random) < 0.03 })
        for row in rows where !dropped.contains(row.trip) {
            let roll = Double.random(in: 0 ..< 1, using: &random)
            var row = row
            if roll < 0.05 {
                row.minutes += 1
            } else if roll < 0.08 {
                continue
            }
            next.append(row)
            if roll > 0.97 {
                next.append(StopTimeRow(trip: row.trip, sequence: row.sequence + 1000 * number, minutes: row.minutes, stop: row.stop))
            } else if roll > 0.96 {
                next.append(StopTimeRow(trip: row.trip, sequence: row.sequence, minutes: row.minutes + 3, stop: row.stop))
            }
        }
        for extra in 0 ..< 2 {
            for sequence in 1 ... 3 {
                next.append(StopTimeRow(trip: "N\(number)-\(extra)", sequence: sequence, minutes: sequence, stop: sequence))
            }
        }
        return next
    }

    /// stop_times.txt with `rows` in order, except that with `scatters` a few rows move to the end of the
    /// file (their trip's rows are then not together).
    static func render(_ rows: [StopTimeRow], scatters: Bool, _ random: inout SeededGenerator) -> String {
        var kept: [StopTimeRow] = []
        var moved: [StopTimeRow] = []
        for row in rows {
            if scatters && Double.random(in: 0 ..< 1, using: &random) < 0.04 { moved.append(row) } else { kept.append(row) }
        }
        return "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n" + (kept + moved).map(\.line).joined()
    }

    static func calendarDates(version: Int) -> String {
        var text = "service_id,date,exception_type\n"
        for service in 0 ..< 6 where service != version {
            for day in 1 ... 4 { text += "S\(service),202506\(String(format: "%02d", day + (service == 2 ? version : 0))),\(service % 2 + 1)\n" }
        }
        return text
    }

    /// `feed_groups` of a feed without the feed's number, sorted.
    static func groups(_ store: GTFSStore, feed: String) throws -> [String] {
        try store.pool.read { db in
            try GRDB.Row.fetchAll(
                db,
                sql: """
                    SELECT table_name, group_key, digest_a, digest_b, rows FROM feed_groups
                    WHERE feed = (SELECT feed FROM feeds WHERE name = ?) ORDER BY table_name, group_key
                    """, arguments: [feed]
            ).map(\.description)
        }
    }

    static var options: ImportOptions {
        var options = ImportOptions()
        options.feed = "vbb"
        // Tiny batches: groups run across batch boundaries.
        options.parsing.batchSize = 3
        return options
    }

    @Test("Seeded versions applied one after another equal fresh imports, feed_groups included, with the counts of a row-by-row diff",
          arguments: [1, 2, 3], [GroupedTables.maxHeldRows, 2])
    func versionsEqualFreshImports(seed: UInt64, maxHeldRows: Int) throws {
        // With 2, every group of 3 rows or more is too large to hold: it is staged as it comes.
        var options = Self.options
        options.maxHeldGroupRows = maxHeldRows
        var random = SeededGenerator(seed: seed)
        let folder = try TemporaryFolder()
        let incremental = try GTFSStore(path: folder.file("incremental.sqlite"))
        // The same chain without stored groups before each import: every table is compared row by row.
        let rowByRow = try GTFSStore(path: folder.file("rows.sqlite"))
        var rows = Self.firstVersion(&random)
        for version in 0 ..< 5 {
            if version > 0 { rows = Self.nextVersion(of: rows, number: version, &random) }
            var files = FeedFiles.feed(stops: 20, trips: 40, stopsPerTrip: 1)
            files["stop_times.txt"] = Self.render(rows, scatters: version % 2 == 1, &random)
            files["calendar_dates.txt"] = Self.calendarDates(version: version)
            let path = try FeedFiles.directory(files, in: folder, name: "v\(version)")

            let applied = try incremental.importFeedSynchronously(from: try FeedSource(path: path), options: options)
            try rowByRow.pool.write { db in try db.execute(sql: "DELETE FROM feed_groups") }
            let compared = try rowByRow.importFeedSynchronously(from: try FeedSource(path: path), options: options)
            let fresh = try GTFSStore(path: folder.file("fresh\(version).sqlite"))
            _ = try fresh.importFeedSynchronously(from: try FeedSource(path: path), options: options)

            #expect(applied.kind == (version == 0 ? .full : .incremental))
            let expected = try IncrementalImportTests.contents(fresh, feed: "vbb")
            #expect(try IncrementalImportTests.contents(incremental, feed: "vbb") == expected, "version \(version)")
            #expect(try IncrementalImportTests.contents(rowByRow, feed: "vbb") == expected, "version \(version)")
            let (incrementalGroups, freshGroups) = (try Self.groups(incremental, feed: "vbb"), try Self.groups(fresh, feed: "vbb"))
            #expect(incrementalGroups == freshGroups, "version \(version) \(Set(incrementalGroups).symmetricDifference(freshGroups))")
            #expect(try Self.groups(rowByRow, feed: "vbb") == Self.groups(fresh, feed: "vbb"), "version \(version)")
            for file: GTFSFile in [.stopTimes, .calendarDates] {
                #expect(applied.table(file)?.changes == compared.table(file)?.changes, "version \(version) \(file)")
            }
            for table in applied.tables {
                #expect(table.rowsStored + table.rowsRejected == table.rowsRead, "version \(version) \(table.fileName)")
            }
            if version > 0 {
                #expect(applied.table(.stopTimes)?.changes.unchanged ?? 0 > 0)
                #expect(applied.table(.stopTimes)?.changes.isEmpty == false)
            }
        }
        // Scattered rows and refused duplicates leave groups without digest; together rows have one.
        let digests = try incremental.pool.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM feed_groups WHERE table_name = 'stop_times' AND digest_a IS NULL") ?? 0
        }
        #expect(digests > 0)
    }

    @Test("A group whose digest matches is not read again; without stored groups every row is compared and the groups are recorded")
    func unchangedGroupsAreSkipped() throws {
        let folder = try TemporaryFolder()
        var files = FeedFiles.feed(stops: 20, trips: 10, stopsPerTrip: 4)
        let store = try GTFSStore(path: folder.file("skip.sqlite"))
        _ = try store.importFeedSynchronously(from: try FeedSource(path: try FeedFiles.directory(files, in: folder, name: "v1")), options: Self.options)
        #expect(try store.pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM feed_groups WHERE table_name = 'stop_times'") } == 10)
        // Behind the importer's back: trip T1's rows change in the store but not in feed_groups.
        try store.pool.write { db in try db.execute(sql: "UPDATE stop_times SET stop_headsign = 'edited' WHERE trip_id = 'T1'") }
        // The next version retimes T2 only.
        files["stop_times.txt"] = files["stop_times.txt", default: ""].replacingOccurrences(of: "T2,06:02:00,06:02:00", with: "T2,06:02:30,06:02:30")
        let v2 = try FeedFiles.directory(files, in: folder, name: "v2")
        let second = try store.importFeedSynchronously(from: try FeedSource(path: v2), options: Self.options)
        #expect(second.table(.stopTimes)?.changes == TableChanges(updated: 1, unchanged: 39))
        // T1 was skipped by its digest: the edit is still there.
        let edited = { try store.pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM stop_times WHERE stop_headsign = 'edited'") } }
        #expect(try edited() == 4)

        // Without stored groups, the rows are compared one by one: the edit is undone, the groups recorded.
        try store.pool.write { db in try db.execute(sql: "DELETE FROM feed_groups") }
        files["stop_times.txt"] = files["stop_times.txt", default: ""] + "T10,07:00:00,07:00:00,S1,1\n"
        let third = try store.importFeedSynchronously(
            from: try FeedSource(path: try FeedFiles.directory(files, in: folder, name: "v3")), options: Self.options)
        #expect(third.table(.stopTimes)?.changes == TableChanges(inserted: 1, updated: 4, unchanged: 36))
        #expect(try edited() == 0)
        #expect(try store.pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM feed_groups WHERE table_name = 'stop_times' AND digest_a IS NOT NULL") } == 11)
    }

    @Test("A trip whose rows come back later in the file is staged whole, also when its first rows match the store",
          arguments: [GroupedTables.maxHeldRows, 1])
    func groupThatComesBack(maxHeldRows: Int) throws {
        var options = Self.options
        options.maxHeldGroupRows = maxHeldRows
        let folder = try TemporaryFolder()
        var files = FeedFiles.feed(stops: 20, trips: 6, stopsPerTrip: 3)
        let store = try GTFSStore(path: folder.file("back.sqlite"))
        _ = try store.importFeedSynchronously(from: try FeedSource(path: try FeedFiles.directory(files, in: folder, name: "v1")), options: options)
        // T1's three rows stay where they were (they match the stored digest); a fourth row and a
        // repeat of its first key (refused) come at the end of the file.
        files["stop_times.txt", default: ""] += "T1,09:00:00,09:00:00,S9,4\nT1,09:30:00,09:30:00,S9,1\n"
        let v2 = try FeedFiles.directory(files, in: folder, name: "v2")
        let second = try store.importFeedSynchronously(from: try FeedSource(path: v2), options: options)
        #expect(second.table(.stopTimes)?.changes == TableChanges(inserted: 1, unchanged: 18))
        #expect(second.table(.stopTimes)?.rowsRejected == 1)
        #expect(second.table(.stopTimes)?.errors.first?.line == 21)
        let fresh = try GTFSStore(path: folder.file("fresh.sqlite"))
        _ = try fresh.importFeedSynchronously(from: try FeedSource(path: v2), options: options)
        #expect(try IncrementalImportTests.contents(store, feed: "vbb") == IncrementalImportTests.contents(fresh, feed: "vbb"))
        #expect(try Self.groups(store, feed: "vbb") == Self.groups(fresh, feed: "vbb"))
        let t1 = try store.pool.read { db in try GRDB.Row.fetchOne(db, sql: "SELECT digest_a, rows FROM feed_groups WHERE group_key = 'T1'") }
        #expect(t1?["digest_a"] as Int64? == nil && t1?["rows"] == 5)
    }

    @Test("Refused rows map to the runs or groups that hold them")
    func refusedRowOwners() {
        #expect(owners(of: [], partSizes: [3, 2]) == [])
        #expect(owners(of: [0, 4], partSizes: [3, 2]) == [0, 1])
        #expect(owners(of: [3, 4], partSizes: [3, 2, 5]) == [1])
        #expect(owners(of: [2, 9], partSizes: [3, 0, 2, 5]) == [0, 3])
        #expect(owners(of: [12], partSizes: [3, 2]) == [])
    }

    @Test("Row hashes: the same stored values hash the same; a changed value, type or NULL changes the hash")
    func rowHashes() throws {
        func hash(_ stopTime: StopTime) -> (UInt64, UInt64) {
            var hasher = RowHasher()
            stopTime.write(to: &hasher)
            return hasher.finish()
        }
        func parse(_ line: String) throws -> StopTime {
            let text = "trip_id,arrival_time,departure_time,stop_id,stop_sequence,stop_headsign\n" + line + "\n"
            var records: [StopTime] = []
            let reader = try Reader(source: MemorySource(Array(text.utf8)))
            _ = try TableParser.parse(StopTime.self, from: reader, fileName: "stop_times.txt") { records += $0 }
            return try #require(records.first)
        }
        let base = try parse("T1,08:00:00,08:00:00,S1,1,Nord")
        // The same stored values: padding and a one-digit hour store the same row.
        #expect(hash(try parse(" T1 ,8:00:00,08:00:00,S1,1,Nord")) == hash(base))
        for other in ["T2,08:00:00,08:00:00,S1,1,Nord", "T1,08:00:01,08:00:00,S1,1,Nord", "T1,08:00:00,08:00:00,S11,1,Nord",
            "T1,08:00:00,08:00:00,S1,2,Nord", "T1,08:00:00,08:00:00,S1,1,", "T1,08:00:00,08:00:00,S1,1,\"Nord \"", "T1,,08:00:00,S1,1,Nord"]
        {
            #expect(hash(try parse(other)) != hash(base), "\(other)")
        }
        var text = RowHasher()
        text.write("1")
        var number = RowHasher()
        number.write(1)
        var null = RowHasher()
        null.writeNull()
        var empty = RowHasher()
        empty.write("")
        #expect(Set([text.finish().0, number.finish().0, null.finish().0, empty.finish().0]).count == 4)
        #expect(text.firstText == "1" && number.firstText == nil)
    }
}
