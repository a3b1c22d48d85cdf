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
            "every": "6h", "realtime": [{"url": "https://…/trip-updates.pb", "every": "30s"}]}]. "headers", "every" \
            (30s, 15m, 6h, 1d; default 1h) and "realtime" (GTFS-Realtime sources, each with "url" and optional "headers" \
            and "every", default 30s) are optional; a header value ${NAME} is the environment variable NAME. Feeds are checked one at a time, each when due, conditionally (an unchanged \
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
        let pollers = try realtimePollers(feeds, store: store, directory: directory)
        let (result, signal) = Blocking.runCancellable(
            giveUpAfter: .milliseconds(900), givingUp: { StandardError.line("stopped by \($0.name); an import in flight rolls back") }
        ) { [once] in
            if once { return await Self.checkOnce(keeper, pollers) }
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await keeper.run() }
                for (feed, poller, every) in pollers {
                    group.addTask { await poller.run(every: every) { FileHandle.standardOutput.write(Data(RealtimeCommand.line($0, feed: feed).utf8)) } }
                }
            }
            return []
        }
        if let signal {
            StandardError.line("stopped by \(signal.name); \(GTFSError.displayable(name)) holds the last good versions")
            return
        }
        let failed = (try? result.get()) ?? []
        if !failed.isEmpty { throw ToolFailure("failed: \(failed.map(GTFSError.displayable).joined(separator: ", "))") }
    }

    /// A poller per realtime source of the feeds, with its feed and interval.
    private func realtimePollers(
        _ feeds: [KeptFeed], store: any FeedStore, directory: URL?
    ) throws(ToolFailure) -> [(feed: String, poller: RealtimePoller, every: Duration)] {
        do {
            return try feeds.flatMap { feed in
                try feed.realtime.map { source in
                    var options = fetch.options
                    options.headers = source.headers
                    let location = RealtimeLocation.url(try FeedFetcher(url: source.url, options: options))
                    return (feed.name, RealtimePoller(store: store, feed: feed.name, sources: [location], directory: directory), source.every)
                }
            }
        } catch {
            throw ToolFailure("\(error)")
        }
    }

    /// Checks every feed once, then polls every realtime source once (a feed's messages need its timetable);
    /// returns the names of the feeds and sources that failed.
    private static func checkOnce(_ keeper: FeedKeeper, _ pollers: [(feed: String, poller: RealtimePoller, every: Duration)]) async -> [String] {
        var failed = await keeper.checkAll().filter(\.failed).map(\.feed)
        for (feed, poller, _) in pollers {
            for report in await poller.pollOnce() {
                FileHandle.standardOutput.write(Data(RealtimeCommand.line(report, feed: feed).utf8))
                if report.failed { failed.append("\(feed) realtime \(report.source)") }
            }
        }
        return failed
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
