/// An index a store builds after loading a table, for the lookups people make of a timetable; both stores
/// (SQLite and PostgreSQL) build these.
///
/// Lookups by a table's own key need none: keys serve `stop_times` by trip and sequence, `shapes` by shape
/// and sequence, `calendar_dates` by service, `frequencies` by trip. `stop_times(stop_id, departure_time)`
/// answers "departures at a stop" in time order, `stop_times(departure_time, feed)` "departures of the
/// network in a window" (one range per service date); the `trips` indexes serve "trips of a route" and "trips
/// running on a date"; the `stops`, `transfers` and `pathways` ones walk stations and interchanges.
public struct LookupIndex: Sendable, Hashable {
    /// The index's name (`stop_times_stop`).
    public let name: String
    /// The table it indexes.
    public let file: GTFSFile
    /// Its columns, in order.
    public let columns: [String]
    /// The condition of a partial index (SQL over the table's columns), or `nil` for every row.
    public let condition: String?

    init(name: String, file: GTFSFile, columns: [String], condition: String? = nil) {
        (self.name, self.file, self.columns, self.condition) = (name, file, columns, condition)
    }

    /// The text after `ON table`: the columns in parentheses, and the condition of a partial index.
    public var definition: String {
        "(\(columns.joined(separator: ", ")))" + (condition.map { " WHERE \($0)" } ?? "")
    }

    /// Every lookup index, in build order.
    public static let all: [LookupIndex] = [
        LookupIndex(name: "stop_times_stop", file: .stopTimes, columns: ["stop_id", "departure_time"]),
        // Partial: a query that compares departure_time can use it; one that scans stop_times cannot, and
        // keeps the stop index, which holds what a scan reads (SQLite would otherwise scan this smaller
        // one and look every stop time up).
        LookupIndex(name: "stop_times_departure", file: .stopTimes, columns: ["departure_time", "feed"], condition: "departure_time IS NOT NULL"),
        LookupIndex(name: "trips_route", file: .trips, columns: ["route_id"]),
        LookupIndex(name: "trips_service", file: .trips, columns: ["service_id"]),
        LookupIndex(name: "trips_shape", file: .trips, columns: ["shape_id"]),
        LookupIndex(name: "calendar_dates_date", file: .calendarDates, columns: ["date"]),
        LookupIndex(name: "stops_parent_station", file: .stops, columns: ["parent_station"]),
        LookupIndex(name: "routes_agency", file: .routes, columns: ["agency_id"]),
        LookupIndex(name: "transfers_from_stop", file: .transfers, columns: ["from_stop_id"]),
        LookupIndex(name: "pathways_from_stop", file: .pathways, columns: ["from_stop_id"]),
        LookupIndex(name: "pathways_to_stop", file: .pathways, columns: ["to_stop_id"]),
        LookupIndex(name: "stop_areas_stop", file: .stopAreas, columns: ["stop_id"]),
    ]
}
