import GTFS
import GTFSPostgres
import Platform
import ToolSupport

extension ImportCommand {
    /// Whether `--db` names a PostgreSQL server rather than a file.
    static func isPostgres(_ db: String) -> Bool {
        db.hasPrefix("postgresql:") || db.hasPrefix("postgres:")
    }

    /// Imports into PostgreSQL: one transaction, the summary per file.
    func runPostgres(_ source: FeedSource) -> Never {
        do {
            let store = try PostgresStore(connectionString: db, schema: schema)
            defer { store.close() }
            let summary = try store.importFeed(from: source, named: feed)
            for (file, rows) in summary.rowsStored.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
                print("\(file.rawValue) \(rows)")
            }
            print("Imported into \(store.target), schema \(schema)")
            System.exit(0)
        } catch {
            fail("\(error); nothing was imported")
        }
    }
}
