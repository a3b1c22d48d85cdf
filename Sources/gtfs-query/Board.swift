import Foundation
import GTFS
import GTFSImport
import ToolSupport

/// A departure or arrival board of a stop, or the departures of the whole network, printed as its events come, as text or JSON: at most one page of rows is
/// held (the first, whose cells set the columns' widths), so a board of millions of rows prints in bounded
/// memory.
final class Board {
    /// The stop; `nil` for the whole network.
    let place: StopLookup.Place?
    let arrivals: Bool
    let start: Date
    let end: Date
    let zone: TimeZone
    let json: Bool
    /// The most rows printed; one more event than this says there are more.
    let limit: Int
    /// Whether the board shows realtime predictions (a column, and three JSON fields).
    let realtime: Bool
    /// The routes and trips on the board, whose alerts it shows.
    private(set) var routes = Set<String>(), trips = Set<String>()
    /// Rows held to measure the columns, until a page is full.
    private var page: [[String]] = []
    private var widths: [Int]?
    private(set) var count = 0
    /// Whether there were more events than ``limit``.
    private(set) var hasMore = false
    /// The first and last dates the feed's services run, to say why a board outside them is empty.
    var serviceDates: ClosedRange<GTFSDate>?
    private let time: DateFormatter
    private let iso = ISO8601DateFormatter()
    private let encoder = JSONText.encoder()

    /// Rows held to measure the columns of a text board.
    static let pageSize = 1_000
    /// The columns of a text board.
    private var header: [String] {
        let base = place == nil ? ["time", "line", "stop", "platform", "to"] : ["time", "line", "platform", arrivals ? "from" : "to"]
        return realtime ? [base[0], "live"] + base.dropFirst() : base
    }

    init(place: StopLookup.Place?, arrivals: Bool, start: Date, end: Date, zone: TimeZone, json: Bool, limit: Int, realtime: Bool = false) {
        (self.place, self.arrivals, self.start, self.end, self.zone, self.json, self.limit) = (place, arrivals, start, end, zone, json, limit)
        self.realtime = realtime
        time = DateFormatter()
        time.locale = Locale(identifier: "en_US_POSIX")
        time.timeZone = zone
        time.dateFormat = "HH:mm"
        iso.timeZone = zone
        iso.formatOptions = [.withInternetDateTime]
        if json {
            write("[\n")
        } else {
            let day = DateFormatter()
            day.locale = time.locale
            day.timeZone = zone
            day.dateFormat = "EEE yyyy-MM-dd HH:mm"
            let title = place.map {
                "\(arrivals ? "Arrivals at" : "Departures from") \(GTFSError.displayable($0.name)) (\(GTFSError.displayable($0.stopID)))"
            }
            write("\(title ?? "Departures of the whole network"), \(day.string(from: start)) to \(time.string(from: end)), \(zone.identifier)\n\n")
        }
    }

    /// Prints one event (the ones past ``limit`` are only noted).
    func add(_ event: StopEvent) throws {
        guard count < limit else {
            hasMore = true
            return
        }
        count += 1
        if realtime, routes.count < limit { routes.insert(event.routeID.description) }
        if realtime { trips.insert(event.tripID.description) }
        if json {
            let text = try realtime ? encoder.encode(LiveRow(row: row(event), live: live(event))) : try encoder.encode(row(event))
            write((count > 1 ? ",\n" : "") + Self.indented(String(decoding: text, as: UTF8.self)))
            return
        }
        let cells = textCells(event)
        if let widths {
            write(Format.row(cells, widths: widths, leftAligned: Set(header.indices)))
            return
        }
        page.append(cells)
        if page.count == Self.pageSize { flushPage() }
    }

    /// Prints what is held and the end of the board.
    func finish() {
        if json {
            // As JSONEncoder writes an array, empty (`[`, an empty line, `]`) or not.
            write("\n]\n")
            return
        }
        guard count > 0 else {
            write((outsideNote ?? "no \(arrivals ? "arrivals" : "departures") in this time") + "\n")
            return
        }
        if widths == nil { flushPage() }
        write("\n" + (hasMore ? moreNote : "\(Format.count(count)) \(arrivals ? "arrival" : "departure")\(count == 1 ? "" : "s")") + "\n")
    }

    /// Why an empty board is empty when its window lies outside every date the feed's services run
    /// (an old feed asked about today): the feed's dates; `nil` otherwise.
    var outsideNote: String? {
        guard count == 0, let serviceDates else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        func date(_ instant: Date) -> GTFSDate? {
            let parts = calendar.dateComponents([.year, .month, .day], from: instant)
            return parts.year.flatMap { year in parts.month.flatMap { month in parts.day.flatMap { GTFSDate(year: year, month: month, day: $0) } } }
        }
        guard let first = date(start), let last = date(end), last < serviceDates.lowerBound || serviceDates.upperBound < first else { return nil }
        return "no \(arrivals ? "arrivals" : "departures"): the feed runs \(Format.date(serviceDates.lowerBound)) to \(Format.date(serviceDates.upperBound))"
    }

    /// What a board cut at its limit says (after the text board, on standard error for JSON).
    var moreNote: String {
        "the first \(Format.count(count)) \(arrivals ? "arrivals" : "departures") (there are more: --limit N shows them)"
    }

    /// The header and the held rows, their widths measured.
    private func flushPage() {
        let widths = Format.columnWidths(header: header, rows: page)
        self.widths = widths
        write(([header] + page).map { Format.row($0, widths: widths, leftAligned: Set(header.indices)) }.joined())
        page = []
    }

    private func textCells(_ event: StopEvent) -> [String] {
        let instant = (arrivals ? event.arrival : event.departure) ?? start
        let later = dayNumber(instant) - dayNumber(start)
        let clock = (event.isExactTime ? "" : "~") + time.string(from: instant) + (later > 0 ? " +\(later)d" : "")
        let stop = place == nil ? [GTFSError.displayable(event.stopName ?? event.stopID.description)] : []
        return [clock] + (realtime ? [liveCell(event)] : []) + [GTFSError.displayable(Self.line(event))] + stop
            + [GTFSError.displayable(event.platformCode ?? ""), GTFSError.displayable((arrivals ? event.origin : event.destination) ?? "")]
    }

    /// The route's name, and the trip's short name (a train number) beside it when it has one.
    private static func line(_ event: StopEvent) -> String {
        let route = event.routeShortName ?? event.routeLongName ?? event.routeID.description
        guard let number = event.tripShortName, !number.isEmpty, number != route else { return route }
        return route + " " + number
    }

    /// One JSON object: the instant as ISO 8601 with the feed's offset.
    private struct Row: Encodable {
        let time: String
        let serviceDate: String
        let line: String?
        let routeID: String
        let routeType: Int?
        let headsign: String?
        /// Where the trip is headed: its headsign, else its last stop's name.
        let destination: String?
        /// On arrivals: the trip's first stop's name.
        let origin: String?
        let tripShortName: String?
        let platform: String?
        let stopID: String
        let stopName: String?
        let tripID: String
        let exactTime: Bool
    }

    private func row(_ event: StopEvent) -> Row {
        Row(
            time: iso.string(from: (arrivals ? event.arrival : event.departure) ?? start), serviceDate: event.serviceDate.description,
            line: event.routeShortName ?? event.routeLongName, routeID: event.routeID.description, routeType: event.routeType?.code,
            headsign: event.headsign, destination: event.destination, origin: event.origin, tripShortName: event.tripShortName,
            platform: event.platformCode, stopID: event.stopID.description, stopName: event.stopName,
            tripID: event.tripID.description, exactTime: event.isExactTime)
    }

    /// A realtime board's cell: `08:12 +2`, `on time` (under half a minute off), `cancelled`, `skipped`, `added`;
    /// empty without a prediction.
    private func liveCell(_ event: StopEvent) -> String {
        guard let call = event.realtime else { return "" }
        switch call.status {
        case .scheduled: return ""
        case .cancelled, .skipped, .added: return call.status.rawValue
        case .predicted:
            let delay = (arrivals ? call.arrivalDelay : call.departureDelay) ?? 0
            let minutes = Int((Double(delay) / 60).rounded())
            guard minutes != 0 else { return "on time" }
            let mark = minutes > 0 ? "+\(minutes)" : "\(minutes)"
            // The shown time is the timetable's moved by the shown minutes, so that the two always agree
            // (a departure 40 s late is `08:01 +1`, not `08:00 +1`).
            let scheduled = arrivals ? event.arrival : event.departure
            let shown = scheduled.map { $0 + Double(minutes * 60) } ?? (arrivals ? event.expectedArrival : event.expectedDeparture)
            return (shown.map { time.string(from: $0) + " " } ?? "") + mark
        }
    }

    /// A realtime board's three JSON fields: the status, the predicted instant and the delay (`null` when none).
    private struct Live {
        let status: String, predictedTime: String?, delay: Int?
    }

    private func live(_ event: StopEvent) -> Live {
        let call = event.realtime ?? RealtimeCall(status: .scheduled)
        let predicted = call.status == .predicted || call.status == .added ? (arrivals ? call.predictedArrival : call.predictedDeparture) : nil
        let delay = call.status == .predicted ? (arrivals ? call.arrivalDelay : call.departureDelay) : nil
        return Live(status: call.status.rawValue, predictedTime: predicted.map(iso.string(from:)), delay: delay)
    }

    /// A row with the realtime fields, which are written as `null` rather than left out.
    private struct LiveRow: Encodable {
        let row: Row, live: Live
        enum Keys: String, CodingKey { case status, predictedTime, delay }

        func encode(to encoder: any Encoder) throws {
            try row.encode(to: encoder)
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(live.status, forKey: .status)
            try container.encode(live.predictedTime, forKey: .predictedTime)
            try container.encode(live.delay, forKey: .delay)
        }
    }

    /// An element of a pretty-printed array: each line indented by two spaces.
    private static func indented(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n")
    }

    private func write(_ text: String) {
        print(text, terminator: "")
    }

    private func dayNumber(_ date: Date) -> Int {
        Int(((date.timeIntervalSince1970 + Double(zone.secondsFromGMT(for: date))) / 86_400).rounded(.down))
    }
}
