import ArgumentParser
import Foundation
import GTFS
import GTFSImport
import GTFSStoreCore
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
        var checks: [String: FeedCheck] = [:]
        do {
            feeds = try store.feeds()
            for feed in feeds {
                dates[feed.name] = try store.serviceDates(feed: feed.name)
                checks[feed.name] = try store.feedCheck(named: feed.name)
            }
        } catch {
            throw ToolFailure(database.isServer ? "\(error)" : "\(name): \(error)")
        }
        if json {
            print(try FeedListJSON.text(feeds, serviceDates: dates, checks: checks, database: name))
        } else {
            print(Self.text(feeds, serviceDates: dates, database: name) + Self.text(checks: feeds.compactMap { checks[$0.name] }), terminator: "")
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

    /// The last check of each feed fetched from a URL, after an empty line; nothing when there is none.
    static func text(checks: [FeedCheck]) -> String {
        guard !checks.isEmpty else { return "" }
        let header = ["feed", "url", "checked at", "result", "ETag", "Last-Modified"]
        let rows = checks.map { check in
            [
                GTFSError.displayable(check.feed), GTFSError.displayable(check.source), Self.timestamp(check.checkedAt),
                check.result.rawValue + (check.message.map { ": " + GTFSError.displayable($0) } ?? ""),
                check.etag.map(GTFSError.displayable) ?? "-", check.lastModified.map(GTFSError.displayable) ?? "-",
            ]
        }
        return "\n" + Format.table(header: header, rows: rows, leftAligned: Set(0..<6))
    }

    /// `2026-11-27T03:26:30Z`.
    static func timestamp(_ date: Date) -> String { date.formatted(.iso8601) }
}
