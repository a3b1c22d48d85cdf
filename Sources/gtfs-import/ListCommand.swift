import ArgumentParser
import Foundation
import GTFS
import GTFSImport
import StoreTools
import ToolSupport

/// `gtfs-import list`: the feeds of a database with their versions and row counts.
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List the feeds of a database: name, rows per main table, imports, current version.")

    @OptionGroup var database: DatabaseOptions

    @Flag(name: .long, help: "Print the feeds as JSON.")
    var json = false

    func run() throws {
        let (store, name) = try database.openExisting(readOnly: true, nothing: "no feeds listed")
        let feeds: [StoredFeed]
        do {
            feeds = try store.feeds()
        } catch {
            throw ToolFailure(database.isServer ? "\(error)" : "\(name): \(error)")
        }
        if json {
            print(try FeedListJSON.text(feeds, database: name))
        } else {
            print(Self.text(feeds, database: name), terminator: "")
        }
    }

    /// One line per feed under a header; `no feeds` for an empty database.
    static func text(_ feeds: [StoredFeed], database: String) -> String {
        guard !feeds.isEmpty else { return "\(GTFSError.displayable(database)): no feeds\n" }
        let header = ["feed", "rows", "stops", "routes", "trips", "stop_times", "imports", "imported at", "version", "source"]
        let rows: [[String]] = feeds.map { feed in
            [
                GTFSError.displayable(feed.name), Format.count(feed.rowCount), Format.count(feed.rowCounts[.stops] ?? 0),
                Format.count(feed.rowCounts[.routes] ?? 0), Format.count(feed.rowCounts[.trips] ?? 0),
                Format.count(feed.rowCounts[.stopTimes] ?? 0), Format.count(feed.importCount), feed.importedAt ?? "-",
                feed.contentHash.map { GTFSError.displayable($0.prefix(12)) } ?? "-", feed.source.map(GTFSError.displayable) ?? "-",
            ]
        }
        return Format.table(header: header, rows: rows, leftAligned: [0, 7, 8, 9])
    }
}
