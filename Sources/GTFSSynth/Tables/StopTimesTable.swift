import GTFS

/// `stop_times.txt`, the big one (6 million rows at scale 1): each trip's stops in order, times from the
/// route's minutes between stops, past 24:00 for late and night trips (`25:13:00`); no drop-off at the
/// first stop, no pickup at the last, on request in between on demand-responsive lines.
struct StopTimesTable: FeedTable {
    let model: FeedModel
    typealias Record = StopTime
    let fields: [StopTime.Field] = [
        .tripID, .arrivalTime, .departureTime, .stopID, .stopSequence, .pickupType, .dropOffType,
    ]

    func writeRows(to out: RowBuffer) throws {
        let routes = model.routes
        var tripID: [UInt8] = []
        try model.stops.platformIDs.withReader { platformIDs in
            for route in 0 ..< routes.count {
                let kind = RouteKind.all[routes.kind[route]]
                let onRequest = kind.onDemand ? 2 : 0
                let start = routes.patternStart[route]
                for index in routes.trips(of: route) {
                    let trip = TripPlan(index: index, route: route, routes: routes, seed: model.seed)
                    let count = routes.stopCount(route: route, variant: trip.variant)
                    let platforms = routes.platforms[trip.direction]
                    let minutes = routes.minutes[trip.direction]
                    tripID.removeAll(keepingCapacity: true)
                    tripID.append(contentsOf: String(trip.tripNumber).utf8)
                    try tripID.withUnsafeBytes { tripID in
                        var time = trip.start
                        for stop in 0 ..< count {
                            let last = stop == count - 1
                            let departure = stop == 0 || last ? time : time + kind.dwell * 60
                            out.bytes(tripID)
                            out.comma()
                            out.time(time)
                            out.comma()
                            out.time(departure)
                            out.comma()
                            out.bytes(platformIDs[Int(platforms[start + stop])])
                            out.comma()
                            out.int(stop)
                            out.comma()
                            out.int(last ? 1 : stop == 0 ? 0 : onRequest)
                            out.comma()
                            out.int(stop == 0 ? 1 : last ? 0 : onRequest)
                            try out.endRow()
                            time = departure + Int(minutes[start + stop]) * 60
                        }
                    }
                }
            }
        }
    }
}
