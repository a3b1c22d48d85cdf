import GTFS

/// `trips.txt`: trips route by route, alternating directions; headsigns are the last station's name,
/// sometimes with a quoted note (`S Ostkreuz Bhf (Berlin) "über Berlin, Seestr."`).
struct TripsTable: FeedTable {
    let model: FeedModel
    typealias Record = Trip
    let fields: [Trip.Field] = [
        .routeID, .serviceID, .tripID, .tripHeadsign, .tripShortName, .directionID, .blockID, .shapeID,
        .wheelchairAccessible, .bikesAllowed,
    ]

    func writeRows(to out: RowBuffer) throws {
        let routes = model.routes
        try routes.routeIDs.withReader { ids in
            try routes.headsigns.withReader { headsigns in
                for route in 0 ..< routes.count {
                    let kind = RouteKind.all[routes.kind[route]]
                    let blocks = kind.routeType == 700 || kind.routeType == 3
                    for index in routes.trips(of: route) {
                        let trip = TripPlan(index: index, route: route, routes: routes, seed: model.seed)
                        out.bytes(ids[route])
                        out.comma()
                        out.int(trip.service + 1)
                        out.comma()
                        out.int(trip.tripNumber)
                        out.comma()
                        let note = trip.variant == 0 && (trip.bits >> 40) % 50 == 1
                        out.field(headsigns[6 * route + (note ? 4 + trip.direction : 2 * trip.direction + trip.variant)])
                        out.comma()
                        if kind.rail { out.int(10_000 + index % 90_000) }
                        out.comma()
                        out.int(trip.direction)
                        out.comma()
                        if blocks && trip.bits % 4 != 0 { out.int(route * 10_000 + (index - routes.firstTrip[route]) / 6 + 1) }
                        out.comma()
                        out.int(Int(routes.shapeNumber[4 * route + 2 * trip.direction + trip.variant]) + 1)
                        out.comma()
                        let access = (trip.bits >> 8) % 10
                        out.int(access < 8 ? 1 : access == 8 ? 2 : 0)
                        out.comma()
                        out.int(kind.rail || (trip.bits >> 12) % 2 == 0 ? 1 : 2)
                        try out.endRow()
                    }
                }
            }
        }
    }
}
