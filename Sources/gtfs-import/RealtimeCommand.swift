import ArgumentParser
import Foundation
import GTFS
import GTFSFetch
import GTFSImport
import GTFSRealtime
import GTFSStoreCore
import StoreTools
import ToolSupport

/// `gtfs-import realtime SOURCE…`: applies GTFS-Realtime messages to a stored feed, once or polling.
struct RealtimeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "realtime",
        abstract: "Apply GTFS-Realtime messages (trip updates, vehicle positions, alerts) to a stored feed.",
        discussion: """
            Each SOURCE is a file, - (standard input) or an http(s) URL of a protobuf FeedMessage; TripUpdates, \
            VehiclePositions and Alerts may come from separate sources. Each message is applied in one transaction \
            that writes only what changed since the source's last message (nothing for the same message again), so \
            readers never wait. A FULL_DATASET message replaces the source's state; DIFFERENTIAL messages are refused \
            (the specification leaves their meaning unsettled). Trip updates older than --max-age make no predictions, \
            and boards show the timetable for them. One line per message on standard output.

            With --every the sources are polled until SIGINT or SIGTERM (status 0); URLs conditionally, with the \
            validators of their last message. Without it, the exit status is 1 when any source failed.
            """)

    @Argument(help: ArgumentHelp("Files, - or URLs of GTFS-Realtime messages.", valueName: "SOURCE"))
    var sources: [String]

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var feedOption: FeedOption

    @Option(name: .long, help: ArgumentHelp("Poll the sources at this interval (30s, 1m, …) until stopped.", valueName: "INTERVAL"))
    var every: String?

    @Option(name: .long, help: ArgumentHelp("The oldest trip update that makes predictions (default 10m; none: any age, to replay old messages).", valueName: "INTERVAL"))
    var maxAge = "10m"

    @Option(name: .long, help: ArgumentHelp("The largest message read: bytes, or with K, M (default 32M).", valueName: "SIZE"))
    var maxMessage = ByteSize(bytes: Int64(RealtimeFeed.defaultMaxBytes))

    @OptionGroup(title: "Fetching") var fetch: FetchArguments

    func validate() throws {
        if let every, Interval.duration(every) == nil { throw ValidationError("--every is not an interval like 30s, 5m or 1h") }
        if Interval.age(maxAge) == nil { throw ValidationError("--max-age is not an interval like 90s, 10m or 1h, nor none") }
        if maxMessage.bytes > 1 << 30 { throw ValidationError("--max-message is at most 1G") }
        if every != nil, sources.contains("-") { throw ValidationError("standard input (-) can be read once, not polled with --every") }
    }

    func run() throws {
        let locations: [RealtimeLocation]
        do {
            locations = try sources.map { text throws(FetchError) in try RealtimeLocation(parsing: text, options: fetch.options) }
        } catch {
            throw ToolFailure("\(error)")
        }
        let (store, name) = try database.openExisting(readOnly: false, nothing: "no message was applied")
        let maxAge = Interval.age(self.maxAge) ?? RealtimeOptions.defaultMaxAge
        let directory = database.path.map { URL(fileURLWithPath: $0).deletingLastPathComponent() }
        let poller = RealtimePoller(
            store: store, feed: feedOption.feed, sources: locations, maxAge: maxAge, maxBytes: Int(maxMessage.bytes), directory: directory)
        let every = self.every.flatMap(Interval.duration)
        let (result, signal) = Blocking.runCancellable(
            giveUpAfter: .milliseconds(900), givingUp: { StandardError.line("stopped by \($0.name); the message in flight rolls back") }
        ) {
            guard let every else { return await poller.pollOnce() }
            await poller.run(every: every) { FileHandle.standardOutput.write(Data(Self.line($0).utf8)) }
            return []
        }
        if let signal {
            StandardError.line("stopped by \(signal.name); \(GTFSError.displayable(name)) holds the last applied messages")
            return
        }
        let reports = (try? result.get()) ?? []
        for report in reports { FileHandle.standardOutput.write(Data(Self.line(report).utf8)) }
        let failed = reports.filter(\.failed)
        if !failed.isEmpty { throw ToolFailure("failed: \(failed.map { GTFSError.displayable($0.source) }.joined(separator: ", "))") }
    }

    /// `2026-11-27T07:00:00Z  trips.pb  3 entities, 1 changed, …  0.02 s`; in `sync`, the source follows its
    /// feed's name and `realtime`.
    static func line(_ report: RealtimePollReport, feed: String? = nil) -> String {
        let time = report.started.formatted(.iso8601)
        let source = (feed.map { "\($0) realtime " } ?? "") + GTFSError.displayable(report.source)
        let seconds = Format.seconds(report.duration)
        switch report.outcome {
        case .success(.applied(let summary)):
            let text = summary.unchangedMessage ? "unchanged, nothing written" : String(summary.line.dropFirst("\(summary.feed) \(summary.source): ".count))
            return "\(time)  \(source)  \(GTFSError.displayable(text))  \(seconds)\n"
        case .success(.notModified): return "\(time)  \(source)  not modified  \(seconds)\n"
        case .failure(let error): return "\(time)  \(source)  failed: \(GTFSError.displayable("\(error)"))  \(seconds)\n"
        }
    }
}
