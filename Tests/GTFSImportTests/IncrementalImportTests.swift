import Foundation
import GRDB
import GTFS
@testable import GTFSImport
import TestSupport
import Synchronization
import Testing

/// Re-importing a feed applies a diff; several feeds live side by side; every import is logged.
@Suite("Incremental imports and several feeds")
struct IncrementalImportTests {
    /// Every row of a feed, without the `feed` column, per table, sorted: what must be identical between
    /// an incremental import and a fresh full import of the same files.
    static func contents(_ store: GTFSStore, feed: String) throws -> [String: [String]] {
        try store.pool.read { db in
            let id = try Int64.fetchOne(db, sql: "SELECT feed FROM feeds WHERE name = ?", arguments: [feed]) ?? -1
            var result: [String: [String]] = [:]
            for table in GTFSSchema.tableNames {
                let columns = try GRDB.Row.fetchAll(db, sql: "PRAGMA table_info(\(table))").map { $0["name"] as String }.filter { $0 != "feed" }
                result[table] = try GRDB.Row.fetchAll(
                    db, sql: "SELECT \(columns.joined(separator: ", ")) FROM \(table) WHERE feed = ?", arguments: [id]
                ).map(\.description).sorted()
            }
            return result
        }
    }

    static func options(feed: String = "default", update: ImportOptions.Update = .automatic) -> ImportOptions {
        var options = ImportOptions()
        options.feed = feed
        options.update = update
        return options
    }

    /// The small feed, then a second version of it: one stop renamed, one removed, one added; trip T3's
    /// stop times retimed, T4 gone with its stop times, T99 new; routes.txt unchanged.
    static func versions() -> (old: [String: String], new: [String: String]) {
        let old = FeedFiles.feed(stops: 30, trips: 12, stopsPerTrip: 6)
        var new = old
        new["stops.txt"] = old["stops.txt", default: ""]
            .replacingOccurrences(of: "S2,\"Stop 2, Berlin\"", with: "S2,\"Stop 2 (neu), Berlin\"")
            .replacingOccurrences(of: "S7,\"Stop 7, Berlin\",52.500007,13.400007\n", with: "")
            + "S100,\"Hauptbahnhof, Berlin\",52.525,13.369\n"
        new["trips.txt"] = old["trips.txt", default: ""].replacingOccurrences(of: "R1,WD,T4\n", with: "") + "R2,WD,T99\n"
        let stopTimes = old["stop_times.txt", default: ""].split(separator: "\n", omittingEmptySubsequences: false).filter {
            !$0.hasPrefix("T4,")
        }.map { line in
            line.hasPrefix("T3,") ? line.replacingOccurrences(of: ":00,", with: ":30,") : String(line)
        }
        new["stop_times.txt"] = stopTimes.joined(separator: "\n").trimmingCharacters(in: .newlines) + "\nT99,07:00:00,07:00:00,S100,1\nT99,07:10:00,07:10:00,S2,2\n"
        return (old, new)
    }

    @Test("A changed feed is applied as a diff whose result equals a fresh import, with the counts per table")
    func diffEqualsFreshImport() throws {
        let folder = try TemporaryFolder()
        let (old, new) = Self.versions()
        let oldPath = try FeedFiles.directory(old, in: folder, name: "v1")
        let newPath = try FeedFiles.directory(new, in: folder, name: "v2")
        let store = try GTFSStore(path: folder.file("incremental.sqlite"))
        let first = try store.importFeedSynchronously(from: try FeedSource(path: oldPath), options: Self.options(feed: "vbb"))
        #expect(first.kind == .full)
        #expect(first.table(.stops)?.changes == TableChanges(inserted: 30))

        let second = try store.importFeedSynchronously(from: try FeedSource(path: newPath), options: Self.options(feed: "vbb"))
        #expect(second.kind == .incremental)
        #expect(!second.changedNothing)
        #expect(second.table(.stops)?.changes == TableChanges(inserted: 1, updated: 1, deleted: 1, unchanged: 28))
        #expect(second.table(.trips)?.changes == TableChanges(inserted: 1, deleted: 1, unchanged: 11))
        #expect(second.table(.stopTimes)?.changes == TableChanges(inserted: 2, updated: 6, deleted: 6, unchanged: 60))
        // Files with the stored content are not read again.
        for file: GTFSFile in [.agency, .routes, .calendar] {
            #expect(second.table(file)?.isUnchangedFile == true, "\(file)")
            #expect(second.table(file)?.changes.unchanged == second.table(file)?.rowsStored)
        }
        #expect(second.table(.stops)?.isUnchangedFile == false)
        // Stored + rejected = read, as in a full import.
        for table in second.tables { #expect(table.rowsStored + table.rowsRejected == table.rowsRead, "\(table.fileName)") }

        let fresh = try GTFSStore(path: folder.file("fresh.sqlite"))
        let full = try fresh.importFeedSynchronously(from: try FeedSource(path: newPath), options: Self.options(feed: "vbb"))
        #expect(try Self.contents(store, feed: "vbb") == Self.contents(fresh, feed: "vbb"))
        #expect(second.contentHash == full.contentHash)
        #expect(second.contentHash != first.contentHash)
        #expect(second.integrity.findings.map(\.description) == full.integrity.findings.map(\.description))
    }

    @Test("An identical feed writes nothing: data_version unchanged, no row in imports, and the summary says so")
    func identicalFeedWritesNothing() throws {
        let folder = try TemporaryFolder()
        let path = try FeedFiles.directory(FeedFiles.feed(), in: folder)
        let store = try GTFSStore(path: folder.file("feed.sqlite"))
        let first = try store.importFeedSynchronously(from: try FeedSource(path: path))
        // A reader's data_version changes only when another connection commits.
        let reader = try DatabaseQueue(path: folder.file("feed.sqlite"))
        let versionBefore = try reader.read { db in try Int.fetchOne(db, sql: "PRAGMA data_version") }
        let importsBefore = try reader.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM imports") }

        let again = try store.importFeedSynchronously(from: try FeedSource(path: path))
        #expect(again.changedNothing)
        #expect(again.kind == .incremental)
        #expect(again.importID == nil)
        #expect(again.contentHash == first.contentHash)
        #expect(again.tables.allSatisfy { $0.isUnchangedFile })
        #expect(again.changes == TableChanges(unchanged: first.rowsStored))

        // The same rows in other bytes (CRLF) are read and compared, and still write nothing.
        let crlf = try FeedFiles.directory(
            FeedFiles.feed().mapValues { $0.replacingOccurrences(of: "\n", with: "\r\n") }, in: folder, name: "crlf")
        let compared = try store.importFeedSynchronously(from: try FeedSource(path: crlf))
        #expect(compared.changedNothing)
        #expect(!compared.tables.contains { $0.isUnchangedFile })
        #expect(compared.changes.unchanged == first.rowsStored)

        let versionAfter = try reader.read { db in try Int.fetchOne(db, sql: "PRAGMA data_version") }
        let importsAfter = try reader.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM imports") }
        #expect(versionAfter == versionBefore)
        #expect(importsAfter == importsBefore)
        try reader.close()
    }

    @Test("--full replaces the feed whole; the result is the same as the diff's")
    func fullReplacement() throws {
        let folder = try TemporaryFolder()
        let (old, new) = Self.versions()
        let store = try GTFSStore(path: folder.file("feed.sqlite"))
        _ = try store.importFeedSynchronously(from: try FeedSource(path: try FeedFiles.directory(old, in: folder, name: "v1")))
        let full = try store.importFeedSynchronously(
            from: try FeedSource(path: try FeedFiles.directory(new, in: folder, name: "v2")), options: Self.options(update: .full))
        #expect(full.kind == .full)
        #expect(full.table(.stops)?.changes == TableChanges(inserted: 30, deleted: 30))
        let fresh = try GTFSStore(path: folder.file("fresh.sqlite"))
        _ = try fresh.importFeedSynchronously(from: try FeedSource(path: try FeedFiles.directory(new, in: folder, name: "v2b")))
        #expect(try Self.contents(store, feed: "default") == Self.contents(fresh, feed: "default"))
    }

    @Test("A whole feed without a file deletes that table's rows; a single file updates only its table")
    func removedTableAndSingleFile() throws {
        let folder = try TemporaryFolder()
        var files = FeedFiles.feed()
        let store = try GTFSStore(path: folder.file("feed.sqlite"))
        _ = try store.importFeedSynchronously(from: try FeedSource(path: try FeedFiles.directory(files, in: folder, name: "v1")))
        files["calendar.txt"] = nil
        let without = try store.importFeedSynchronously(from: try FeedSource(path: try FeedFiles.directory(files, in: folder, name: "v2")))
        #expect(without.table(.calendar)?.changes == TableChanges(deleted: 1))
        #expect(try store.rowCounts(feed: "default")[.calendar] == 0)

        let before = try Self.contents(store, feed: "default")
        let stops = folder.file("stops.txt")
        try Data((files["stops.txt", default: ""] + "S999,\"Neu, Berlin\",52.5,13.4\n").utf8).write(to: URL(fileURLWithPath: stops))
        let single = try store.importFeedSynchronously(from: try FeedSource(path: stops))
        #expect(single.kind == .incremental)
        #expect(single.tables.map(\.file) == [.stops])
        #expect(single.table(.stops)?.changes == TableChanges(inserted: 1, unchanged: 20))
        var after = try Self.contents(store, feed: "default")
        #expect(after["stops"]?.count == 21)
        after["stops"] = before["stops"]
        #expect(after == before)
    }

    @Test("Two feeds with the same ids live side by side; removing one removes exactly its rows")
    func severalFeeds() throws {
        let folder = try TemporaryFolder()
        let path = try FeedFiles.directory(FeedFiles.feed(), in: folder)
        let other = try FeedFiles.directory(FeedFiles.feed(stops: 40, trips: 5, namePrefix: "Halt"), in: folder, name: "other")
        let store = try GTFSStore(path: folder.file("feed.sqlite"))
        let a = try store.importFeedSynchronously(from: try FeedSource(path: path), options: Self.options(feed: "a"))
        let b = try store.importFeedSynchronously(from: try FeedSource(path: other), options: Self.options(feed: "b"))
        #expect(a.kind == .full && b.kind == .full)
        // Stop S1 exists in both feeds, each with its own name.
        let names = try store.pool.read { db in
            try String.fetchAll(db, sql: "SELECT stop_name FROM stops JOIN feeds USING (feed) WHERE stop_id = 'S1' ORDER BY name")
        }
        #expect(names == ["Stop 1, Berlin", "Halt 1, Berlin"])
        // References are checked within a feed: feed b's trips refer to its own stops.
        #expect(b.integrity.findings.isEmpty)

        let feeds = try store.feeds()
        #expect(feeds.map(\.name) == ["a", "b"])
        #expect(feeds[0].rowCounts[.stops] == 20 && feeds[1].rowCounts[.stops] == 40)
        #expect(feeds[0].contentHash == a.contentHash && feeds[0].importID == a.importID && feeds[0].importCount == 1)

        let bBefore = try Self.contents(store, feed: "b")
        let removed = try store.removeFeed(named: "a")
        #expect(removed == a.rowsStored)
        #expect(try store.feeds().map(\.name) == ["b"])
        #expect(try Self.contents(store, feed: "b") == bBefore)
        #expect(try store.rowCounts().values.reduce(0, +) == b.rowsStored)
        #expect(try store.removeFeed(named: "a") == nil)
    }

    @Test("Every import that wrote or failed is in imports: outcome, kind, counts, hash; a failure keeps the version whole")
    func importsLog() throws {
        let folder = try TemporaryFolder()
        let (old, new) = Self.versions()
        let store = try GTFSStore(path: folder.file("feed.sqlite"))
        let first = try store.importFeedSynchronously(from: try FeedSource(path: try FeedFiles.directory(old, in: folder, name: "v1")))
        let before = try Self.contents(store, feed: "default")
        var broken = new
        broken["stops.txt"] = new["stops.txt", default: ""] + "S500,\"Kaputt\",north,13.4\n"
        var strict = Self.options()
        strict.parsing.strict = true
        #expect(throws: ImportError.self) {
            try store.importFeedSynchronously(from: try FeedSource(path: try FeedFiles.directory(broken, in: folder, name: "broken")), options: strict)
        }
        #expect(try Self.contents(store, feed: "default") == before)
        let second = try store.importFeedSynchronously(from: try FeedSource(path: try FeedFiles.directory(new, in: folder, name: "v2")))

        let rows = try store.pool.read { db in try GRDB.Row.fetchAll(db, sql: "SELECT * FROM imports ORDER BY import_id") }
        #expect(rows.count == 3)
        #expect(rows.map { $0["outcome"] as String } == ["completed", "failed", "completed"])
        #expect(rows.map { $0["kind"] as String } == ["full", "incremental", "incremental"])
        #expect((rows[1]["message"] as String?)?.contains("stops.txt") == true)
        #expect(rows[0]["content_hash"] as String? == first.contentHash)
        #expect(rows[2]["import_id"] as Int64 == second.importID)
        #expect(rows[2]["rows_inserted"] as Int == second.changes.inserted)
        #expect(rows[2]["rows_updated"] as Int == second.changes.updated)
        #expect(rows[2]["rows_deleted"] as Int == second.changes.deleted)
        #expect(rows[2]["rows_unchanged"] as Int == second.changes.unchanged)
        let feed = try #require(try store.feeds().first)
        #expect(feed.importID == second.importID && feed.contentHash == second.contentHash)
    }

    @Test("A cancel during an incremental import leaves the previous version whole and is logged as cancelled")
    func cancelledDiff() throws {
        let folder = try TemporaryFolder()
        let store = try GTFSStore(path: folder.file("feed.sqlite"))
        _ = try store.importFeedSynchronously(
            from: try FeedSource(path: try FeedFiles.directory(FeedFiles.feed(trips: 200, stopsPerTrip: 20), in: folder, name: "v1")))
        let before = try Self.contents(store, feed: "default")
        let next = try FeedFiles.directory(FeedFiles.feed(trips: 300, stopsPerTrip: 20, namePrefix: "Neu"), in: folder, name: "v2")
        let operation = ImportOperation(source: try FeedSource(path: next), store: store)
        operation.observePhases { phase, file in
            if phase == .loading && file == "stop_times.txt" { operation.cancel() }
        }
        operation.start()
        if case .failure(let error)? = operation.result { #expect(error.isCancellation) } else { Issue.record("not cancelled") }
        #expect(try Self.contents(store, feed: "default") == before)
        let outcome = try store.pool.read { db in try String.fetchOne(db, sql: "SELECT outcome FROM imports ORDER BY import_id DESC LIMIT 1") }
        #expect(outcome == "cancelled")
    }

    @Test("A version 1 store is migrated in place: its rows become feed 1, default, and the next import is incremental")
    func migrationFromVersion1() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("v1.sqlite")
        do {
            let queue = try DatabaseQueue(path: path)
            try GTFSSchema.migrator.migrate(queue, upTo: "v1")
            try queue.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO stops (stop_id, stop_name, stop_lat, stop_lon, location_type, wheelchair_boarding)
                        VALUES ('S1', 'Stop 1, Berlin', 52.5, 13.4, 1, 0)
                        """)
            }
            try queue.close()
        }
        let store = try GTFSStore(path: path)
        let feeds = try store.feeds()
        #expect(feeds.map(\.name) == ["default"])
        // The timetable of the migrated rows is derived as the store opens: its stop is found by name.
        #expect(try store.stops(named: "berlin").map(\.stopID) == ["S1"])
        #expect(feeds.first?.rowCounts == [.stops: 1])
        #expect(feeds.first?.contentHash == nil)
        let summary = try store.importFeedSynchronously(
            from: try FeedSource(path: try FeedFiles.directory(FeedFiles.feed(), in: folder)))
        #expect(summary.kind == .incremental)
        #expect(summary.table(.stops)?.changes == TableChanges(inserted: 19, updated: 1))
    }

    @Test("A zip entry whose declared CRC-32 differs from the stored one is parsed without being hashed first")
    func changedCRCSkipsHashing() throws {
        let folder = try TemporaryFolder()
        let zip = try FeedSource(path: Repository.berlin.appendingPathComponent("vbb-2025-subset.zip").path)
        let store = try GTFSStore(path: folder.file("crc.sqlite"))
        _ = try store.importFeedSynchronously(from: zip)
        let entries = try zip.entries()
        let stored = try #require(try store.pool.read { db in try FeedCatalog.state(db, name: "default") })
        for entry in entries {
            guard let table = entry.table else { continue }
            #expect(entry.declaredCRC32 != nil)
            #expect(stored.tables[table]?.contentCRC32 == entry.declaredCRC32, "\(entry.fileName)")
        }

        // The same zip: every entry is hashed and matches.
        var same = ImportPlan(imported: Set(entries.compactMap(\.table)), existing: stored, incremental: true, replaceAll: true)
        try same.findUnchangedFiles(in: zip, stored: stored, options: ParseOptions()) { true }
        #expect(same.isNoChange)
        #expect(same.hashedBytes == entries.reduce(0) { $0 + ($1.byteCount ?? 0) })

        // A stored CRC-32 that differs (as after a change of stops.txt): stops is neither hashed nor skipped.
        var tables = stored.tables
        let stops = try #require(tables[.stops])
        tables[.stops] = TableState(
            contentHash: stops.contentHash, rowsRead: stops.rowsRead, rowsStored: stops.rowsStored, rowsRejected: stops.rowsRejected,
            contentCRC32: (stops.contentCRC32 ?? 0) ^ 1)
        let changed = FeedState(
            id: stored.id, importID: stored.importID, contentHash: stored.contentHash, tables: tables, tablesWithRows: stored.tablesWithRows)
        var plan = ImportPlan(imported: Set(entries.compactMap(\.table)), existing: changed, incremental: true, replaceAll: true)
        try plan.findUnchangedFiles(in: zip, stored: changed, options: ParseOptions()) { true }
        #expect(plan.tablesToParse == [.stops])
        let stopsBytes = try #require(entries.first { $0.table == .stops }?.byteCount)
        #expect(plan.hashedBytes == same.hashedBytes - stopsBytes)
    }

    @Test("A file whose CRC-32 equals the stored one but whose content differs is found out, applied, and its changes reported once")
    func matchingCRCWithOtherContent() throws {
        let folder = try TemporaryFolder()
        let (old, new) = Self.versions()
        func zip(_ files: [String: String], _ name: String) throws -> String {
            var writer = TestZip()
            for (file, text) in files.sorted(by: { $0.key < $1.key }) { writer.add(file, text) }
            return try folder.write(writer.archive(), name: name)
        }
        let store = try GTFSStore(path: folder.file("crc.sqlite"))
        _ = try store.importFeedSynchronously(from: try FeedSource(path: try zip(old, "v1.zip")))
        // stops.txt changes; the store is made to hold its new CRC-32 with its old content hash, as a
        // file whose CRC-32 collides would leave it. The import assumes it unchanged, and its hash says no.
        var files = old
        files["stops.txt"] = new["stops.txt"]
        // routes.txt changes too, in its bytes only (the same rows): the first attempt parses it and
        // finds nothing to change, which must not end the import as "nothing changed".
        files["routes.txt"] = old["routes.txt", default: ""] + "\n"
        // trips.txt changes as well: the first attempt must not report its changes, which the second reports.
        files["trips.txt"] = new["trips.txt"]
        let v2 = try FeedSource(path: try zip(files, "v2.zip"))
        let crc = try #require(try v2.entries().first { $0.table == .stops }?.declaredCRC32)
        try store.pool.write { db in
            try db.execute(sql: "UPDATE feed_tables SET content_crc32 = ? WHERE table_name = 'stops'", arguments: [crc])
        }
        let changes = Mutex<[RowChange]>([])
        var options = ImportOptions()
        options.changeHandler = { change in changes.withLock { $0.append(change) } }
        let summary = try store.importFeedSynchronously(from: v2, options: options)
        #expect(summary.table(.stops)?.changes == TableChanges(inserted: 1, updated: 1, deleted: 1, unchanged: 28))
        #expect(summary.table(.trips)?.changes == TableChanges(inserted: 1, deleted: 1, unchanged: 11))
        #expect(changes.withLock { $0.count } == 5)
        let fresh = try GTFSStore(path: folder.file("fresh.sqlite"))
        _ = try fresh.importFeedSynchronously(from: v2)
        #expect(try Self.contents(store, feed: "default") == Self.contents(fresh, feed: "default"))
        // Nothing of the abandoned attempt is left: one import logged, and the next import of v2 changes nothing.
        #expect(try store.pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM imports") } == 2)
        #expect(try store.importFeedSynchronously(from: v2).changedNothing)
    }

    @Test("A zip entry whose stored bytes hash as recorded is unchanged without being read; other bytes of the same content are hashed")
    func storedBytesShortcut() throws {
        let folder = try TemporaryFolder()
        let files = Self.versions().old
        func zip(_ name: String, deflate: Bool) throws -> FeedSource {
            var writer = TestZip()
            for (file, text) in files.sorted(by: { $0.key < $1.key }) { writer.add(file, text, deflate: deflate) }
            return try FeedSource(path: try folder.write(writer.archive(), name: name))
        }
        let store = try GTFSStore(path: folder.file("stored.sqlite"))
        let deflated = try zip("deflated.zip", deflate: true)
        _ = try store.importFeedSynchronously(from: deflated)
        let recorded = try store.pool.read { db in
            Dictionary(uniqueKeysWithValues: try GRDB.Row.fetchAll(db, sql: "SELECT table_name, stored_hash FROM feed_tables").map {
                ($0["table_name"] as String, $0["stored_hash"] as String?)
            })
        }
        for entry in try deflated.entries() {
            let table = try #require(entry.table)
            #expect(recorded[table.rawValue] == .some(try entry.storedBytesHash()), "\(entry.fileName)")
        }
        // A stored content hash that no longer matches: only the stored bytes' hash can find stops.txt unchanged.
        try store.pool.write { db in try db.execute(sql: "UPDATE feed_tables SET content_hash = 'other' WHERE table_name = 'stops'") }
        let same = try store.importFeedSynchronously(from: deflated)
        #expect(same.changedNothing && same.table(.stops)?.isUnchangedFile == true)
        // The same content stored without compression: other bytes, so stops.txt is hashed and read again.
        let stored = try zip("stored.zip", deflate: false)
        #expect(try stored.entries().first { $0.table == .stops }?.storedBytesHash() != recorded["stops"] ?? nil)
        let second = try store.importFeedSynchronously(from: stored)
        #expect(second.table(.stops)?.isUnchangedFile == false)
        #expect(second.table(.routes)?.isUnchangedFile == true)
    }

    @Test("A table the stored feed has no rows in is stored directly, as a full import stores it: no diff, the same rows, refusals, digests and indexes")
    func addedTableIsStoredDirectly() throws {
        let folder = try TemporaryFolder()
        var files = FeedFiles.feed(stops: 30, trips: 12, stopsPerTrip: 6)
        let stopTimes = try #require(files["stop_times.txt"])
        files["stop_times.txt"] = nil
        let store = try GTFSStore(path: folder.file("feed.sqlite"))
        _ = try store.importFeedSynchronously(from: try FeedSource(path: try FeedFiles.directory(files, in: folder, name: "v1")))

        // The feed gains stop_times.txt, with one duplicate row (line 74).
        files["stop_times.txt"] = stopTimes + "T0,07:00:00,07:00:00,S1,2\n"
        let v2 = try FeedFiles.directory(files, in: folder, name: "v2")
        let added = try store.importFeedSynchronously(from: try FeedSource(path: v2))
        #expect(added.kind == .incremental)
        // The other files are unchanged and skipped; stop_times goes straight in, so nothing is compared.
        #expect(added.diffDuration == .zero)
        let times = try #require(added.table(.stopTimes))
        #expect(times.changes == TableChanges(inserted: 72))
        #expect(times.rowsRead == 73 && times.rowsStored == 72 && times.rowsRejected == 1)
        #expect(times.errors.map(\.description) == ["stop_times.txt:74: (trip_id, stop_sequence) = (\"T0\", 2) repeats line 3; rejected"])
        #expect(added.integrity.checksRun > 0)

        let fresh = try GTFSStore(path: folder.file("fresh.sqlite"))
        let full = try fresh.importFeedSynchronously(from: try FeedSource(path: v2))
        #expect(try Self.contents(store, feed: "default") == Self.contents(fresh, feed: "default"))
        #expect(added.contentHash == full.contentHash)
        let indexes = "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'stop_times' ORDER BY name"
        #expect(try store.pool.read { db in try String.fetchAll(db, sql: indexes) } == fresh.pool.read { db in try String.fetchAll(db, sql: indexes) })
        let digests = "SELECT group_key, digest_a, digest_b, rows FROM feed_groups WHERE table_name = 'stop_times' ORDER BY group_key"
        let stored = try store.pool.read { db in try GRDB.Row.fetchAll(db, sql: digests) }
        #expect(stored.count == 12)
        #expect(stored == (try fresh.pool.read { db in try GRDB.Row.fetchAll(db, sql: digests) }))

        // The recorded digests serve the next import: one retimed trip is compared, the others are skipped.
        files["stop_times.txt"] = stopTimes.split(separator: "\n").map { line in
            line.hasPrefix("T3,") ? line.replacingOccurrences(of: ":00,", with: ":30,") : String(line)
        }.joined(separator: "\n") + "\n"
        let retimed = try store.importFeedSynchronously(from: try FeedSource(path: try FeedFiles.directory(files, in: folder, name: "v3")))
        #expect(retimed.table(.stopTimes)?.changes == TableChanges(updated: 6, unchanged: 66))
    }
}
