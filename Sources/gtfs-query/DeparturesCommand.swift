import ArgumentParser
import Foundation
import GTFS
import GTFSImport
import ToolSupport

/// `gtfs-query departures STOP`: a departure (or arrival) board; `--all`: the departures of the whole network.
struct DeparturesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "departures",
        abstract: "Print the departures from a stop (a station includes its platforms).",
        discussion: """
            STOP is a stop_id or a name: the best match of the name index (stations first), so \
            "Alexanderplatz" finds the station S+U Alexanderplatz. A platform stands for its whole station. \
            With --all instead of STOP: every departure of the network, with its stop, in time order.

            Examples: gtfs-query departures Alexanderplatz --at "2025-11-10 08:00" --minutes 30
                      gtfs-query departures --all --at "2025-11-10 08:00" --minutes 5 --limit 100000
            """
    )

    @Argument(help: "A stop_id or a stop name.")
    var stop: String?

    @Flag(name: .long, help: "The departures of the whole network instead of one stop's.")
    var all = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "When the board starts: 'YYYY-MM-DD HH:MM', 'HH:MM' (today) or ISO 8601 with an offset; the feed's time zone unless an offset is given (default: now).",
            valueName: "DATETIME"))
    var at: String?

    @Option(name: .long, help: "How many minutes the board covers (1 to 10080).")
    var minutes = 60

    @Option(name: .long, help: "The most rows printed (the board says when there are more).")
    var limit = FeedStoreLimits.boardLimit

    @Flag(name: .long, help: "Arrivals instead of departures.")
    var arrivals = false

    @Flag(name: .long, help: "Show realtime predictions (gtfs-import realtime): the expected time and delay, cancelled, skipped, added trips, and alerts.")
    var realtime = false

    @Option(name: .long, help: ArgumentHelp("With --realtime: the oldest prediction shown (default 10m; none: any age).", valueName: "INTERVAL"))
    var maxAge = "10m"

    @OptionGroup var store: StoreOptions

    func validate() throws {
        switch (stop, all) {
        case (nil, false): throw ValidationError("give a STOP, or --all for the departures of the whole network")
        case (.some, true): throw ValidationError("give a STOP or --all, not both")
        default: break
        }
        // The stores index the network's stop times by departure, not by arrival.
        if all && arrivals { throw ValidationError("--all lists departures; --arrivals needs a STOP") }
        guard (1 ... 10_080).contains(minutes) else { throw ValidationError("--minutes must be 1 to 10080, got \(minutes)") }
        if limit < 1 { throw ValidationError("--limit must be at least 1, got \(limit)") }
        if RealtimeArguments.seconds(maxAge) == nil { throw ValidationError("--max-age is not an interval like 90s, 10m or 1h, nor none") }
        if realtime && all { throw ValidationError("--realtime shows a stop's board; give a STOP") }
        // The form is checked here; the time zone that places it is the feed's, known once the store is open.
        if let at {
            do {
                _ = try QueryTime.parse(at, in: TimeZone(secondsFromGMT: 0) ?? .current)
            } catch {
                throw ValidationError("--at \(at): \(error)")
            }
        }
    }

    func run() throws {
        let database = try store.open()
        let zone = (try? database.timeZone(feed: store.feed)) ?? TimeZone(secondsFromGMT: 0) ?? .current
        let start: Date
        if let at {
            do {
                start = try QueryTime.parse(at, in: zone)
            } catch {
                throw ToolFailure("--at \(at): \(error)")
            }
        } else {
            start = Date()
        }
        let place = try stop.map { try StopLookup.resolve($0, in: database, feed: store.feed) }
        let end = start.addingTimeInterval(Double(minutes) * 60)
        let board = Board(place: place, arrivals: arrivals, start: start, end: end, zone: zone, json: store.json, limit: limit, realtime: realtime)
        let live = realtime ? RealtimeOptions(maxAge: RealtimeArguments.seconds(maxAge) ?? RealtimeOptions.defaultMaxAge) : nil
        board.serviceDates = try? database.serviceDates(feed: store.feed)
        // One event more than the limit says whether there are more.
        let asked = limit == .max ? limit : limit + 1
        do {
            if let place, arrivals {
                try database.forEachArrival(at: place.stopID, between: start, and: end, feed: store.feed, limit: asked, realtime: live, board.add)
            } else if let place {
                try database.forEachDeparture(from: place.stopID, between: start, and: end, feed: store.feed, limit: asked, realtime: live, board.add)
            } else {
                try database.forEachDeparture(between: start, and: end, feed: store.feed, limit: asked, board.add)
            }
        } catch {
            throw ToolFailure("\(error)")
        }
        board.finish()
        if let place, realtime {
            let stops = [place.stopID] + ((try? database.stops(inStation: place.stopID, feed: store.feed)) ?? []).map(\.stopID.description)
            let alerts = try RealtimeArguments.alerts(
                database, feed: store.feed, stops: stops, routes: board.routes.sorted(), trips: board.trips.sorted(), at: start)
            RealtimeArguments.printAlerts(alerts, json: store.json)
        }
        if store.json && board.hasMore { StandardError.line(board.moreNote) }
        if store.json, let note = board.outsideNote { StandardError.line(note) }
    }
}
