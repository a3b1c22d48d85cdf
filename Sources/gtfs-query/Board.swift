import Foundation
import GTFS
import GTFSImport
import ToolSupport

/// A departure or arrival board, as text or JSON.
struct Board {
    let place: StopLookup.Place
    let events: [StopEvent]
    let arrivals: Bool
    let start: Date
    let end: Date
    let zone: TimeZone

    /// The header line, a table (time, line, platform, headsign) and the count.
    func text() -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = "EEE yyyy-MM-dd HH:mm"
        let until = DateFormatter()
        until.locale = formatter.locale
        until.timeZone = zone
        until.dateFormat = "HH:mm"
        let name = GTFSError.displayable(place.name)
        var text = "\(arrivals ? "Arrivals at" : "Departures from") \(name) (\(GTFSError.displayable(place.stopID))), "
            + "\(formatter.string(from: start)) to \(until.string(from: end)), \(zone.identifier)\n\n"
        guard !events.isEmpty else { return text + "no \(arrivals ? "arrivals" : "departures") in this time\n" }
        let day = dayNumber(start)
        let rows = events.map { event -> [String] in
            let instant = (arrivals ? event.arrival : event.departure) ?? start
            let later = dayNumber(instant) - day
            let time = (event.isExactTime ? "" : "~") + until.string(from: instant) + (later > 0 ? " +\(later)d" : "")
            return [
                time, GTFSError.displayable(event.routeShortName ?? event.routeLongName ?? event.routeID.description),
                GTFSError.displayable(event.platformCode ?? ""), GTFSError.displayable(event.headsign ?? ""),
            ]
        }
        let header = ["time", "line", "platform", arrivals ? "from trip to" : "to"]
        text += Format.table(header: header, rows: rows, leftAligned: [0, 1, 2, 3])
        let noun = arrivals ? "arrival" : "departure"
        return text + "\n\(Format.count(events.count)) \(noun)\(events.count == 1 ? "" : "s")\n"
    }

    /// One object per row: instants as ISO 8601 with the feed's offset.
    func json() throws -> String {
        struct Row: Encodable {
            let time: String
            let serviceDate: String
            let line: String?
            let routeID: String
            let routeType: Int?
            let headsign: String?
            let platform: String?
            let stopID: String
            let stopName: String?
            let tripID: String
            let exactTime: Bool
        }
        let iso = ISO8601DateFormatter()
        iso.timeZone = zone
        iso.formatOptions = [.withInternetDateTime]
        let rows = events.map { event in
            Row(
                time: iso.string(from: (arrivals ? event.arrival : event.departure) ?? start), serviceDate: event.serviceDate.description,
                line: event.routeShortName ?? event.routeLongName, routeID: event.routeID.description, routeType: event.routeType?.code,
                headsign: event.headsign, platform: event.platformCode, stopID: event.stopID.description, stopName: event.stopName,
                tripID: event.tripID.description, exactTime: event.isExactTime)
        }
        return try JSONText.pretty(rows)
    }

    private func dayNumber(_ date: Date) -> Int {
        Int(((date.timeIntervalSince1970 + Double(zone.secondsFromGMT(for: date))) / 86_400).rounded(.down))
    }
}
