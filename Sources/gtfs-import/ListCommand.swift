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
        var dates: [String: ClosedRange<GTFSDate>] = [:]
        do {
            feeds = try store.feeds()
            for feed in feeds { dates[feed.name] = try store.serviceDates(feed: feed.name) }
        } catch {
            throw ToolFailure(database.isServer ? "\(error)" : "\(name): \(error)")
        }
        if json {
            print(try FeedListJSON.text(feeds, serviceDates: dates, database: name))
        } else {
            print(Self.text(feeds, serviceDates: dates, database: name), terminator: "")
        }
    }

    /// One line per feed under a header; `no feeds` for an empty database.
    /// - Parameter serviceDates: the first and last date each feed's services run, by feed.
    static func text(_ feeds: [StoredFeed], serviceDates: [String: ClosedRange<GTFSDate>], database: String) -> String {
        guard !feeds.isEmpty else { return "\(GTFSError.displayable(database)): no feeds\n" }
        let header = ["feed", "rows", "stops", "routes", "trips", "stop_times", "runs", "imports", "imported at", "version", "source"]
        let rows: [[String]] = feeds.map { feed in
            [
                GTFSError.displayable(feed.name), Format.count(feed.rowCount), Format.count(feed.rowCounts[.stops] ?? 0),
                Format.count(feed.rowCounts[.routes] ?? 0), Format.count(feed.rowCounts[.trips] ?? 0),
                Format.count(feed.rowCounts[.stopTimes] ?? 0),
                serviceDates[feed.name].map { "\(Format.date($0.lowerBound)) to \(Format.date($0.upperBound))" } ?? "-",
                Format.count(feed.importCount), feed.importedAt ?? "-",
                feed.contentHash.map { GTFSError.displayable($0.prefix(12)) } ?? "-", feed.source.map(GTFSError.displayable) ?? "-",
            ]
        }
        return Format.table(header: header, rows: rows, leftAligned: [0, 6, 8, 9, 10])
    }
}
