import ArgumentParser
import Foundation
import GTFS
import GTFSImport
import ToolSupport

/// `gtfs-query vehicles`: the vehicle positions `gtfs-import realtime` stored, near a point or of a route.
struct VehiclesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vehicles",
        abstract: "List vehicle positions from GTFS-Realtime: near a point (nearest first), of a route, or all.",
        discussion: """
            Examples: gtfs-query vehicles --near 52.5219,13.4132 --within 1000
                      gtfs-query vehicles --route 17289_700
            """
    )

    @Option(name: .long, help: ArgumentHelp("A point: latitude and longitude in degrees.", valueName: "LAT,LON"))
    var near: String?

    @Option(name: .long, help: ArgumentHelp("The largest distance from --near, in meters.", valueName: "METERS"))
    var within = 1000.0

    @Option(name: .long, help: ArgumentHelp("Only the vehicles serving this route_id.", valueName: "ROUTE"))
    var route: String?

    @Option(name: .long, help: ArgumentHelp("The oldest position shown (default 10m; none: any age).", valueName: "INTERVAL"))
    var maxAge = "10m"

    @Option(name: .long, help: "The most vehicles listed.")
    var limit = 100

    @OptionGroup var store: StoreOptions

    func validate() throws {
        if near != nil, StopsCommand.point(near) == nil { throw ValidationError("--near must be LAT,LON in degrees, e.g. 52.5219,13.4132") }
        guard within >= 0, within <= 100_000 else { throw ValidationError("--within must be 0 to 100000 meters, got \(within)") }
        if RealtimeArguments.seconds(maxAge) == nil { throw ValidationError("--max-age is not an interval like 90s, 10m or 1h, nor none") }
        guard limit >= 1 else { throw ValidationError("--limit must be at least 1, got \(limit)") }
    }

    /// One JSON object.
    private struct Row: Encodable {
        let vehicleID: String?, label: String?, tripID: String?, routeID: String?, latitude: Double?, longitude: Double?
        let bearing: Double?, speed: Double?, stopID: String?, status: String?, timestamp: String?, meters: Double?
    }

    func run() throws {
        let database = try store.open()
        let point = StopsCommand.point(near)
        let vehicles: [RealtimeVehicle]
        do {
            let options = RealtimeOptions(maxAge: RealtimeArguments.seconds(maxAge) ?? RealtimeOptions.defaultMaxAge)
            vehicles = try database.vehicles(
                feed: store.feed, near: point.map { ($0.latitude, $0.longitude, within) }, route: route, options: options)
        } catch {
            throw ToolFailure("\(error)")
        }
        let rows = vehicles.prefix(limit).map { vehicle in
            Row(
                vehicleID: vehicle.vehicle?.id, label: vehicle.vehicle?.label, tripID: vehicle.trip?.tripID, routeID: vehicle.trip?.routeID,
                latitude: vehicle.latitude, longitude: vehicle.longitude, bearing: vehicle.bearing, speed: vehicle.speed, stopID: vehicle.stopID,
                status: vehicle.stopStatus, timestamp: vehicle.timestamp.map { Date(timeIntervalSince1970: Double($0)).formatted(.iso8601) },
                meters: point.flatMap { p in
                    vehicle.latitude.flatMap { lat in vehicle.longitude.map { GeoDistance.meters(p.latitude, p.longitude, lat, $0).rounded() } }
                })
        }
        if store.json {
            print(String(decoding: try JSONText.encoder().encode(Array(rows)), as: UTF8.self))
            return
        }
        guard !rows.isEmpty else { return print("no vehicles") }
        let header = ["vehicle", "route", "trip", "position", "meters", "at"]
        let cells = rows.map { row in
            [
                row.label ?? row.vehicleID ?? "", row.routeID ?? "", row.tripID ?? "",
                row.latitude.flatMap { lat in row.longitude.map { String(format: "%.5f,%.5f", lat, $0) } } ?? "",
                row.meters.map { String(Int($0)) } ?? "", row.timestamp ?? "",
            ].map(GTFSError.displayable)
        }
        let widths = Format.columnWidths(header: header, rows: cells)
        print(([header] + cells).map { Format.row($0, widths: widths, leftAligned: [0, 1, 2, 3, 5]) }.joined(), terminator: "")
        if vehicles.count > limit { print("the first \(limit) of \(Format.count(vehicles.count)) vehicles (--limit N shows more)") }
    }
}
