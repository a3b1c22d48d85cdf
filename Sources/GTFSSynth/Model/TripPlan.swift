/// One trip, derived from its route and its index alone: trips.txt, stop_times.txt and transfers.txt
/// compute the same trip independently, in any order, without storing 2.5 million of them.
struct TripPlan {
    /// The global trip index (`trip_id` is ``tripNumber``).
    let index: Int
    let route: Int
    /// 0 or 1.
    let direction: Int
    /// 0 for a full trip, 1 for a short-turn trip.
    let variant: Int
    /// Index into the feed's services.
    let service: Int
    /// Departure from the first stop, in seconds after midnight of the service day.
    let start: Int
    /// Random bits for the trip's small choices (headsign note, accessibility, bikes).
    let bits: UInt64

    /// The `trip_id`: a 9-digit number like VBB's (`200000001`).
    var tripNumber: Int { 200_000_001 + index }

    /// Plans trip `index`, the `index - firstTrip`-th trip of `route`.
    init(index: Int, route: Int, routes: RouteNetwork, seed: UInt64) {
        var random = SplitMix64(seed: seed, stream: .trips, index: index)
        bits = random.next()
        self.index = index
        self.route = route
        let order = index - routes.firstTrip[route]
        let tripCount = routes.firstTrip[route + 1] - routes.firstTrip[route]
        direction = order & 1
        variant = routes.shortLength[route] > 0 && bits % 5 == 0 ? 1 : 0
        // Slots alternate between the route's services; each service spreads its slots over the day.
        let slot = order >> 1
        let slots = (tripCount + 1) / 2
        let serviceCount = routes.serviceStart[route + 1] - routes.serviceStart[route]
        service = Int(routes.services[routes.serviceStart[route] + slot % serviceCount])
        let perService = (slots + serviceCount - 1) / serviceCount
        let first = routes.firstDeparture[route]
        let span = routes.lastDeparture[route] - first
        let headway = perService > 1 ? span / (perService - 1) : 0
        let jitter = Int((bits >> 32) % 3) - 1
        start = max(0, (first + (slot / serviceCount) * headway + direction * headway / 2) / 60 * 60 + jitter * 60)
    }

    /// Plans the trip with global index `index` (its route found by binary search).
    init(index: Int, routes: RouteNetwork, seed: UInt64) {
        self.init(index: index, route: routes.route(ofTrip: index), routes: routes, seed: seed)
    }

    /// The platform of the trip's first or last stop.
    func platform(first: Bool, routes: RouteNetwork) -> Int {
        let offset = first ? 0 : routes.stopCount(route: route, variant: variant) - 1
        return Int(routes.platforms[direction][routes.patternStart[route] + offset])
    }
}
