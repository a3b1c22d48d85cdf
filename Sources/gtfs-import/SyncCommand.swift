import ArgumentParser
import Foundation
import GTFS
import GTFSFetch
import GTFSImport
import GTFSPostgres
import GTFSStoreCore
import StoreTools
import ToolSupport

/// `gtfs-import sync FEEDS.json`: keeps the feeds a file lists fresh in one database, until stopped.
struct SyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Keep the feeds a JSON file lists fresh in one database: each checked against its URL when due.",
        discussion: """
            FEEDS.json is an array of feeds: [{"name": "vbb", "url": "https://…/gtfs.zip", "headers": {"X-Api-Key": "${VBB_KEY}"}, \
            "every": "6h"}]. "headers" and "every" (30s, 15m, 6h, 1d; default 1h) are optional; a header value ${NAME} \
            is the environment variable NAME. Feeds are checked one at a time, each when due, conditionally (an unchanged \
            feed costs one request); a failed check is tried again sooner, backing off, while the database keeps the last \
            good version. One line per check on standard output. SIGINT or SIGTERM stops it within a second (an import in \
            flight rolls back) with status 0, or 130/143 when an import had to be abandoned.

            With --once every feed is checked once: exit status 0 when each was imported, unchanged or not modified, \
            1 when any failed (each named on standard error).
            """)

    @Argument(help: ArgumentHelp("The feeds file (JSON).", valueName: "FEEDS.json"))
    var file: String

    @OptionGroup var database: DatabaseOptions

    @Flag(name: .long, help: "Check every feed once and exit.")
    var once = false

    @Flag(name: .long, help: "With PostgreSQL: neither create nor use PostGIS (no stops.geom, no shape_lines).")
    var noPostgis = false

    @OptionGroup(title: "Fetching") var fetch: FetchArguments

    func run() throws {
        let feeds: [KeptFeed]
        do {
            feeds = try SyncFile.load(file)
        } catch {
            throw ToolFailure("\(error)")
        }
        let (store, name) = try openStore()
        let directory = database.path.map { URL(fileURLWithPath: $0).deletingLastPathComponent() }
        let keeper = FeedKeeper(store: store, feeds: feeds, fetch: fetch.options, directory: directory) { report in
            // Unbuffered: a log follows each check as it ends.
            FileHandle.standardOutput.write(Data(Self.line(report).utf8))
        }
        let (result, signal) = Blocking.runCancellable(
            giveUpAfter: .milliseconds(900), givingUp: { StandardError.line("stopped by \($0.name); an import in flight rolls back") }
        ) { [once] in
            if once { return await keeper.checkAll() }
            await keeper.run()
            return []
        }
        if let signal {
            StandardError.line("stopped by \(signal.name); \(GTFSError.displayable(name)) holds the last good versions")
            return
        }
        let failed = ((try? result.get()) ?? []).filter(\.failed).map(\.feed)
        if !failed.isEmpty { throw ToolFailure("failed: \(failed.map(GTFSError.displayable).joined(separator: ", "))") }
    }

    /// The store `--db` names, created when it is a new file.
    private func openStore() throws(ToolFailure) -> (any FeedStore, String) {
        if database.isServer {
            let store = try database.openServer(nothing: "no feed was checked")
            store.usesPostGIS = !noPostgis
            return (store, "\(store.target) schema \(database.schema)")
        }
        let path = database.path ?? ""
        do {
            return (try GTFSStore(path: path), path)
        } catch {
            throw ToolFailure("\(path): \(error); no feed was checked")
        }
    }

    /// `2026-11-27T03:04:05Z  vbb  not modified  0.05 s`, and for a failure when it is tried again.
    static func line(_ report: FeedCheckReport) -> String {
        let time = report.started.formatted(.iso8601)
        let feed = GTFSError.displayable(report.feed)
        let seconds = Format.seconds(report.duration)
        switch report.outcome {
        case .success(.imported(let summary)):
            let changes = summary.changes
            let what =
                summary.kind == .full
                ? "\(Format.count(summary.rowsStored)) rows"
                : "\(Format.count(changes.inserted)) inserted, \(Format.count(changes.updated)) updated, \(Format.count(changes.deleted)) deleted"
            return "\(time)  \(feed)  imported (\(summary.kind.rawValue): \(what))  \(seconds)\n"
        case .success(.notModified): return "\(time)  \(feed)  not modified  \(seconds)\n"
        case .success(.unchanged): return "\(time)  \(feed)  unchanged (same bytes)  \(seconds)\n"
        case .failure(let error):
            let wait = Self.interval(report.nextCheck.timeIntervalSince(Date()))
            return "\(time)  \(feed)  failed: \(GTFSError.displayable("\(error)"))  \(seconds); next check in \(wait)\n"
        }
    }

    /// `45 s`, `2 min`, `6 h`.
    static func interval(_ seconds: Double) -> String {
        let whole = Int(max(0, seconds).rounded())
        return whole < 120 ? "\(whole) s" : whole < 7200 ? "\(whole / 60) min" : "\(whole / 3600) h"
    }
}
