import Foundation
import GTFS
import GTFSImport
import ToolSupport

/// What the realtime queries share: the age argument, and the alerts a board shows.
enum RealtimeArguments {
    /// `--max-age` in seconds (`none`: no limit); `nil` when it is neither an interval nor `none`.
    static func seconds(_ text: String) -> Double? { Interval.age(text) }

    /// The alerts in force for a board's stops, routes and trips.
    static func alerts(
        _ store: any FeedStore, feed: String, stops: [String], routes: [String], trips: [String], at instant: Date
    ) throws(ToolFailure) -> [RealtimeAlert] {
        do {
            return try store.alerts(feed: feed, stops: stops, routes: routes, trips: trips, at: instant)
        } catch {
            throw ToolFailure("\(error)")
        }
    }

    /// Prints the alerts after a text board (on standard error after a JSON board, which is an array of
    /// departures): `! Streik (STRIKE, NO_SERVICE): Keine S-Bahn zwischen …`.
    static func printAlerts(_ alerts: [RealtimeAlert], json: Bool) {
        guard !alerts.isEmpty else { return }
        var lines = json ? [] : ["", "Alerts:"]
        for alert in alerts {
            let kind = [alert.cause, alert.effect].compactMap { $0 }.joined(separator: ", ")
            let header = alert.header.first?.text ?? alert.description.first?.text ?? "(no text)"
            var line = "! " + GTFSError.displayable(header) + (kind.isEmpty ? "" : " (\(kind))")
            if let description = alert.description.first?.text, description != header { line += ": " + GTFSError.displayable(description) }
            lines.append(line)
        }
        if json {
            for line in lines { StandardError.line(line) }
        } else {
            print(lines.joined(separator: "\n"))
        }
    }
}
