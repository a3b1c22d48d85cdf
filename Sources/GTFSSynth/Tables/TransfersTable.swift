import GTFS

/// `transfers.txt`: mostly minimum-time transfers between the platforms of one station (as VBB has
/// them), some recommended ones to the next station, some limited to a pair of routes, and timed
/// transfers from a trip's last stop to the next trip of its route.
struct TransfersTable: FeedTable {
    let model: FeedModel
    typealias Record = Transfer
    let fields: [Transfer.Field] = [
        .fromStopID, .toStopID, .fromRouteID, .toRouteID, .fromTripID, .toTripID, .transferType, .minTransferTime,
    ]

    /// The key of a transfer (indexes; -1 for an empty field): GTFS allows each combination once.
    private struct Key: Hashable {
        var from: Int, to: Int, fromRoute = -1, toRoute = -1, fromTrip = -1, toTrip = -1
    }

    func writeRows(to out: RowBuffer) throws {
        let stops = model.stops
        let routes = model.routes
        try stops.platformIDs.withReader { platformIDs in
            try routes.routeIDs.withReader { routeIDs in
                // Random draws may repeat a key; a repeat is skipped and the next draw taken, so the file
                // holds exactly `transfers` rows with distinct keys (the draws stay seeded, the output identical).
                var seen = Set<Key>()
                var draw = 0
                while seen.count < model.size.transfers && draw < model.size.transfers * 20 {
                    var random = SplitMix64(seed: model.seed, stream: .transfers, index: draw)
                    draw += 1
                    let style = random.weightedIndex([0.8, 0.1, 0.05, 0.05])
                    let station = random.below(stops.stationCount)
                    let own = stops.platforms(of: station)
                    let from = own.lowerBound + random.below(own.count)
                    let to = own.count > 1 ? own.lowerBound + (from - own.lowerBound + 1 + random.below(own.count - 1)) % own.count : from
                    switch style {
                    case 0:  // between platforms of a station, with a minimum time
                        guard seen.insert(Key(from: from, to: to)).inserted else { continue }
                        out.bytes(platformIDs[from])
                        out.comma()
                        out.bytes(platformIDs[to])
                        out.ascii(",,,,,2,")
                        out.int(60 * random.int(in: 1 ... 7))
                    case 1:  // recommended, to the next station
                        let next = stops.platforms(of: (station + 1) % stops.stationCount).lowerBound
                        guard seen.insert(Key(from: from, to: next)).inserted else { continue }
                        out.bytes(platformIDs[from])
                        out.comma()
                        out.bytes(platformIDs[next])
                        out.ascii(",,,,,0,")
                    case 2:  // between two routes at a station
                        let fromRoute = random.below(routes.count)
                        let toRoute = random.below(routes.count)
                        let minutes = random.int(in: 2 ... 5)
                        guard seen.insert(Key(from: from, to: to, fromRoute: fromRoute, toRoute: toRoute)).inserted else { continue }
                        out.bytes(platformIDs[from])
                        out.comma()
                        out.bytes(platformIDs[to])
                        out.comma()
                        out.bytes(routeIDs[fromRoute])
                        out.comma()
                        out.bytes(routeIDs[toRoute])
                        out.ascii(",,,2,")
                        out.int(60 * minutes)
                    default:  // timed: a trip's last stop to the next trip of its route
                        let trip = TripPlan(index: random.below(model.size.trips), routes: routes, seed: model.seed)
                        let trips = routes.trips(of: trip.route)
                        let nextIndex = trip.index + 1 < trips.upperBound ? trip.index + 1 : trips.lowerBound
                        let next = TripPlan(index: nextIndex, route: trip.route, routes: routes, seed: model.seed)
                        let fromStop = trip.platform(first: false, routes: routes)
                        let toStop = next.platform(first: true, routes: routes)
                        let key = Key(from: fromStop, to: toStop, fromTrip: trip.tripNumber, toTrip: next.tripNumber)
                        guard seen.insert(key).inserted else { continue }
                        out.bytes(platformIDs[fromStop])
                        out.comma()
                        out.bytes(platformIDs[toStop])
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
