/// `transfers.txt`: mostly minimum-time transfers between the platforms of one station (as VBB has
/// them), some recommended ones to the next station, some limited to a pair of routes, and timed
/// transfers from a trip's last stop to the next trip of its route.
struct TransfersTable: FeedTable {
    let model: FeedModel
    let fileName = "transfers.txt"
    let columns = [
        "from_stop_id", "to_stop_id", "from_route_id", "to_route_id", "from_trip_id", "to_trip_id", "transfer_type",
        "min_transfer_time",
    ]

    func writeRows(to out: RowBuffer) throws {
        let stops = model.stops
        let routes = model.routes
        try stops.platformIDs.withReader { platformIDs in
            try routes.routeIDs.withReader { routeIDs in
                for index in 0 ..< model.size.transfers {
                    var random = SplitMix64(seed: model.seed, stream: .transfers, index: index)
                    let style = random.weightedIndex([0.8, 0.1, 0.05, 0.05])
                    let station = random.below(stops.stationCount)
                    let own = stops.platforms(of: station)
                    let from = own.lowerBound + random.below(own.count)
                    let to = own.count > 1 ? own.lowerBound + (from - own.lowerBound + 1 + random.below(own.count - 1)) % own.count : from
                    switch style {
                    case 0:  // between platforms of a station, with a minimum time
                        out.bytes(platformIDs[from])
                        out.comma()
                        out.bytes(platformIDs[to])
                        out.ascii(",,,,,2,")
                        out.int(60 * random.int(in: 1 ... 7))
                    case 1:  // recommended, to the next station
                        let next = stops.platforms(of: (station + 1) % stops.stationCount).lowerBound
                        out.bytes(platformIDs[from])
                        out.comma()
                        out.bytes(platformIDs[next])
                        out.ascii(",,,,,0,")
                    case 2:  // between two routes at a station
                        out.bytes(platformIDs[from])
                        out.comma()
                        out.bytes(platformIDs[to])
                        out.comma()
                        out.bytes(routeIDs[random.below(routes.count)])
                        out.comma()
                        out.bytes(routeIDs[random.below(routes.count)])
                        out.ascii(",,,2,")
                        out.int(60 * random.int(in: 2 ... 5))
                    default:  // timed: a trip's last stop to the next trip of its route
                        let trip = TripPlan(index: random.below(model.size.trips), routes: routes, seed: model.seed)
                        let trips = routes.trips(of: trip.route)
                        let nextIndex = trip.index + 1 < trips.upperBound ? trip.index + 1 : trips.lowerBound
                        let next = TripPlan(index: nextIndex, route: trip.route, routes: routes, seed: model.seed)
                        out.bytes(platformIDs[trip.platform(first: false, routes: routes)])
                        out.comma()
                        out.bytes(platformIDs[next.platform(first: true, routes: routes)])
                        out.ascii(",,,")
                        out.int(trip.tripNumber)
                        out.comma()
                        out.int(next.tripNumber)
                        out.ascii(",1,")
                    }
                    try out.endRow()
                }
            }
        }
    }
}
