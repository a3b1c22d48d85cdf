import GRDB
import GTFS
@testable import GTFSImport
import TestSupport
import Testing

@Suite("Store schema")
struct SchemaTests {
    @Test("A new store has a table for every GTFS file, the views, gtfs_meta, WAL mode and the application id")
    func newStore() throws {
        let folder = try TemporaryFolder()
        let store = try GTFSStore(path: folder.file("feed.sqlite"))
        try store.pool.read { db in
            let tables = Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'"))
            for file in GTFSFile.allCases {
                #expect(tables.contains(file.rawValue), "no table for \(file.fileName)")
            }
            #expect(Set(GTFSSchema.tableNames) == Set(GTFSFile.allCases.map(\.rawValue)))
            #expect(tables.contains("gtfs_meta"))
            let views = Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'view'"))
            #expect(views == Set(GTFSSchema.viewNames))
            #expect(try String.fetchOne(db, sql: "PRAGMA journal_mode") == "wal")
            #expect(try Int.fetchOne(db, sql: "PRAGMA page_size") == 8192)
            #expect(try Int32.fetchOne(db, sql: "PRAGMA application_id") == GTFSSchema.applicationID)
            #expect(try Int.fetchOne(db, sql: "SELECT value FROM gtfs_meta WHERE key = 'schema_version'") == GTFSSchema.version)
            #expect(try GTFSSchema.migrator.appliedIdentifiers(db) == ["v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9"])
            #expect(tables.isSuperset(of: ["service_days", "feed_days", "feed_utc_offsets", "frequency_runs", "stops_rtree", "stops_names"]))
            // A new store has no feed, so nothing to derive later.
            #expect(try String.fetchOne(db, sql: "SELECT value FROM gtfs_meta WHERE key = 'timetable_stale'") == nil)
            #expect(tables.isSuperset(of: ["feeds", "feed_tables", "imports", "feed_groups", "feed_checks"]))
        }
        #expect(try store.rowCounts().values.allSatisfy { $0 == 0 })
        #expect(try store.rowCounts().count == GTFSFile.allCases.count)
    }

    @Test("Every table is its description: `feed`, then each field with its type, NULL only where a record may hold no value")
    func tablesMatchDescriptions() throws {
        let folder = try TemporaryFolder()
        let store = try GTFSStore(path: folder.file("feed.sqlite"))
        let sqlTypes: [FieldPrimitive: String] = [.text: "TEXT", .integer: "INTEGER", .real: "REAL"]
        try store.pool.read { db in
            for file in GTFSFile.allCases {
                let table = file.table
                #expect(table.file == file && GTFSSchema.tableName(for: file) == file.rawValue)
                let info = try GRDB.Row.fetchAll(db, sql: "PRAGMA table_info(\(file.rawValue))")
                #expect(info.map { $0["name"] as String } == ["feed"] + table.fields.map(\.name), "\(file.fileName)")
                for (column, field) in zip(info.dropFirst(), table.fields) {
                    #expect(column["type"] as String == sqlTypes[field.type.primitive], "\(file.rawValue).\(field.name)")
                    #expect((column["notnull"] as Int == 1) == !field.isNullable, "\(file.rawValue).\(field.name)")
                }
            }
        }
    }

    @Test("Keys are the descriptions' keys with `feed` last: a primary key, or a unique index where a part may be empty")
    func keysMatchDescriptions() throws {
        let folder = try TemporaryFolder()
        let store = try GTFSStore(path: folder.file("feed.sqlite"))
        try store.pool.read { db in
            for file in GTFSFile.allCases {
                let table = file.table
                let info = try GRDB.Row.fetchAll(db, sql: "PRAGMA table_info(\(file.rawValue))")
                let pk = info.filter { ($0["pk"] as Int) > 0 }.sorted { ($0["pk"] as Int) < ($1["pk"] as Int) }.map { $0["name"] as String }
                let index = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = ?", arguments: ["\(file.rawValue)_key"])
                let keyFields = table.keyFields
                if keyFields.isEmpty {
                    #expect(pk.isEmpty, "\(file.rawValue)")
                    // attribution_id may be empty, and empty ids repeat: its unique index keeps NULLs distinct.
                    #expect(index == (file == .attributions ? "CREATE UNIQUE INDEX attributions_key ON attributions (attribution_id, feed)" : nil))
                } else if keyFields.allSatisfy({ !$0.isNullable }) {
                    #expect(pk == keyFields.map(\.name) + ["feed"], "\(file.rawValue)")
                    #expect(index == nil)
                } else {
                    #expect(pk.isEmpty, "\(file.rawValue)")
                    let expressions = keyFields.map { $0.isNullable ? "ifnull(\($0.name), '')" : $0.name } + ["feed"]
                    let normalized = index?.split(whereSeparator: \.isWhitespace).joined(separator: " ")
                    #expect(normalized == "CREATE UNIQUE INDEX \(file.rawValue)_key ON \(file.rawValue) ( \(expressions.joined(separator: ", ")) )"
                        || normalized == "CREATE UNIQUE INDEX \(file.rawValue)_key ON \(file.rawValue) (\(expressions.joined(separator: ", ")))",
                        "\(file.rawValue): \(normalized ?? "no key index")")
                }
            }
        }
    }

    @Test("A copy made from the description (as a diff stages rows) has the store table's columns, keys and layout")
    func copiesMatchTheStore() throws {
        let folder = try TemporaryFolder()
        let store = try GTFSStore(path: folder.file("feed.sqlite"))
        try store.pool.writeWithoutTransaction { db in
            try db.execute(sql: "ATTACH DATABASE '' AS copies")
            defer { _ = try? db.execute(sql: "DETACH DATABASE copies") }
            func shape(_ schema: String, _ table: String) throws -> [String] {
                let columns = try GRDB.Row.fetchAll(db, sql: "SELECT name, type, \"notnull\", pk FROM pragma_table_info(?, ?)", arguments: [table, schema])
                let indexes = try GRDB.Row.fetchAll(
                    db, sql: "SELECT name, \"unique\" FROM pragma_index_list(?, ?) WHERE origin <> 'pk' ORDER BY name", arguments: [table, schema]
                ).filter { $0["unique"] as Int == 1 }.map { index in
                    let parts = try String.fetchAll(db, sql: "SELECT coalesce(name, '<expr>') FROM pragma_index_xinfo(?, ?) WHERE key = 1", arguments: [index["name"] as String, schema])
                    return "unique(\(parts.joined(separator: ",")))"
                }
                let withoutRowID = try String.fetchOne(db, sql: "SELECT sql FROM \(schema).sqlite_master WHERE name = ?", arguments: [table])?.hasSuffix("WITHOUT ROWID") ?? false
                return columns.map(\.description) + indexes + [withoutRowID ? "WITHOUT ROWID" : "rowid"]
            }
            for file in GTFSFile.allCases {
                let table = StoreTable(file)
                for statement in table.createStatements(named: table.name, schema: "copies") { try db.execute(sql: statement) }
                #expect(try shape("copies", table.name) == shape("main", table.name), "\(file.rawValue)")
            }
        }
    }

    @Test("Primary keys follow the reference; stop_times and shapes are clustered WITHOUT ROWID")
    func primaryKeys() throws {
        let folder = try TemporaryFolder()
        let store = try GTFSStore(path: folder.file("feed.sqlite"))
        let expected: [String: [String]] = [
            "stops": ["stop_id"], "routes": ["route_id"], "trips": ["trip_id"],
            "stop_times": ["trip_id", "stop_sequence"], "calendar": ["service_id"],
            "calendar_dates": ["service_id", "date"], "shapes": ["shape_id", "shape_pt_sequence"],
            "frequencies": ["trip_id", "start_time"], "pathways": ["pathway_id"], "levels": ["level_id"],
            "timeframes": ["timeframe_group_id", "start_time", "end_time", "service_id"],
            "stop_areas": ["area_id", "stop_id"], "route_networks": ["route_id"],
            "location_group_stops": ["location_group_id", "stop_id"], "transfers": [], "feed_info": [],
        ]
        try store.pool.read { db in
            for (table, key) in expected {
                let info = try GRDB.Row.fetchAll(db, sql: "PRAGMA table_info(\(table))")
                let pk = info.filter { ($0["pk"] as Int) > 0 }.sorted { ($0["pk"] as Int) < ($1["pk"] as Int) }.map { $0["name"] as String }
                // Every key ends with the feed, so each feed has its own ids.
                #expect(pk == (key.isEmpty ? [] : key + ["feed"]), "\(table)")
            }
            // (The name index's own FTS5 tables aside.)
            let withoutRowID = try String.fetchAll(
                db, sql: "SELECT name FROM sqlite_master WHERE sql LIKE '%WITHOUT ROWID%' AND name NOT LIKE 'stops_names_%' ORDER BY name")
            #expect(withoutRowID == ["changes", "feed_days", "feed_groups", "feed_references", "feed_utc_offsets", "frequency_runs", "service_days", "shapes", "stop_times"])
        }
    }

    @Test("A row of every file goes in through its own TableInserter")
    func oneRowOfEveryFile() throws {
        let folder = try TemporaryFolder()
        let store = try GTFSStore(path: folder.file("feed.sqlite"))
        try store.pool.write { db in
            for file in GTFSFile.allCases {
                let csv = try #require(Fixtures.oneRowPerFile[file], "no fixture for \(file.fileName)")
                let inserted = try file.accept(OneRowInsertion(csv: csv, db: db))
                #expect(inserted == 1, "\(file.fileName)")
            }
        }
        let counts = try store.rowCounts()
        for file in GTFSFile.allCases {
            #expect(counts[file] == 1, "\(file.fileName)")
        }
    }

    @Test("A field whose column the file lacks holds no value unless it is never empty: what a store may leave out of a load")
    func absentColumnsHoldNothing() throws {
        // The fixtures' headers name few columns: most fields of every file are absent here.
        for file in GTFSFile.allCases {
            let csv = try #require(Fixtures.oneRowPerFile[file], "no fixture for \(file.fileName)")
            let header = Set(csv.prefix { $0 != "\n" }.split(separator: ",").map(String.init))
            let filled = try file.accept(FilledFields(csv: csv))
            #expect(filled.count == file.table.fields.count, "\(file.fileName)")
            for (field, holds) in zip(file.table.fields, filled) where !header.contains(field.name) {
                #expect(!holds || !field.isNullable, "\(file.fileName): \(field.name) holds a value without its column")
            }
        }
    }

    @Test("Post-load indexes are built (twice is harmless), used by the example queries, and dropped")
    func indexes() throws {
        let folder = try TemporaryFolder()
        let store = try GTFSStore(path: folder.file("feed.sqlite"))
        let names = Set(GTFSSchema.postLoadIndexes.map(\.name))
        func indexNames() throws -> Set<String> {
            try store.pool.read { db in Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index'")) }
        }
        // A new store has the lookup indexes a migration added (on an empty table): building them again is harmless.
        #expect(try indexNames().intersection(names) == ["stop_times_departure"])
        try store.pool.write { db in try GTFSSchema.createIndexes(db) }
        try store.pool.write { db in try GTFSSchema.createIndexes(db) }
        #expect(try names.isSubset(of: indexNames()))
        for required in [
            "stop_times_stop", "trips_route", "trips_service", "calendar_dates_date", "stops_parent_station", "transfers_from_stop",
        ] {
            #expect(names.contains(required))
        }
        let queries: [(sql: String, uses: String)] = [
            ("SELECT * FROM stop_times WHERE stop_id = 'S1' ORDER BY departure_time", "stop_times_stop"),
            ("SELECT * FROM stop_times WHERE departure_time >= 28800 AND departure_time < 30000", "stop_times_departure"),
            ("SELECT * FROM stop_times WHERE trip_id = 'T1' ORDER BY stop_sequence", "PRIMARY KEY"),
            ("SELECT * FROM trips WHERE route_id = 'R1'", "trips_route"),
            ("SELECT * FROM trips WHERE service_id = 'WD'", "trips_service"),
            ("SELECT * FROM shapes WHERE shape_id = 'SH1' ORDER BY shape_pt_sequence", "PRIMARY KEY"),
            ("SELECT * FROM calendar_dates WHERE date = 20251231", "calendar_dates_date"),
            ("SELECT * FROM stops WHERE parent_station = 'S1'", "stops_parent_station"),
            ("SELECT * FROM transfers WHERE from_stop_id = 'S1'", "transfers_from_stop"),
        ]
        let plans = try store.pool.read { db in
            try queries.map { query in
                try GRDB.Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + query.sql).map { $0["detail"] as String }.joined(separator: "; ")
            }
        }
        for (query, plan) in zip(queries, plans) {
            #expect(plan.contains(query.uses), "\(query.sql): \(plan)")
        }
        try store.pool.write { db in try GTFSSchema.dropIndexes(db) }
        #expect(try indexNames().isDisjoint(with: names))
    }
}

/// For the first record of a CSV text, whether each field held a value.
private struct FilledFields: RecordTypeVisitor {
    let csv: String

    func visit<R: GTFSRecord>(_ type: R.Type) throws -> [Bool] {
        var sink = Sink()
        try Fixtures.parse(R.self, csv).first?.write(to: &sink)
        return sink.filled
    }

    private struct Sink: FieldSink {
        var filled: [Bool] = []
        mutating func writeNull() { filled.append(false) }
        mutating func writeText(_ utf8: UnsafeBufferPointer<UInt8>) { filled.append(true) }
        mutating func write(_ value: Int) { filled.append(true) }
        mutating func write(_ value: Double) { filled.append(true) }
    }
}
