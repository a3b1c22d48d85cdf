/// The routes: their kind, agency, the stops of a full trip in each direction with the minutes between
/// them, their services, their timetable window, their headsigns and their shapes.
///
/// Direction 1 serves the stations of direction 0 in reverse, from the station's other platform. A route
/// with at least 6 stops also has a short-turn variant that ends after 60 % of the stops; it has shapes
/// and headsigns of its own.
struct RouteNetwork {
    /// The kind of route `r`, an index into ``RouteKind/all``.
    let kind: [Int]
    /// Agency index of route `r`.
    let agency: [Int]
    /// `route_id`, e.g. `10017_700`.
    let routeIDs: ByteTable
    /// `route_short_name`.
    let shortNames: [String]
    /// Trips of route `r`: global trip indices `firstTrip[r] ..< firstTrip[r + 1]`.
    let firstTrip: [Int]
    /// Stops of a full trip of route `r`.
    let length: [Int]
    /// Stops of a short-turn trip, 0 when the route has none.
    let shortLength: [Int]
    /// Where route `r`'s stops start in ``platforms`` and ``minutes``.
    let patternStart: [Int]
    /// Per direction: the platforms of the stops in travel order.
    let platforms: [[Int32]]
    /// Per direction: minutes from stop `i` to stop `i + 1` (at `patternStart + i`).
    let minutes: [[Int32]]
    /// Services of route `r`: `services[serviceStart[r] ..< serviceStart[r + 1]]`.
    let serviceStart: [Int]
    let services: [Int32]
    /// First and last departure of the day, in seconds (past 24 h for night lines).
    let firstDeparture: [Int]
    let lastDeparture: [Int]
    /// CSV-ready headsigns: 6 per route at `6 r + 2 direction + variant`, then `6 r + 4 + direction` for the
    /// full trip with a quoted note.
    let headsigns: ByteTable
    /// Shape number of `(route, direction, variant)` at `4 r + 2 direction + variant`, -1 when none.
    let shapeNumber: [Int32]
    /// The shapes in number order: `(route, direction, variant)`.
    let shapes: [(route: Int32, direction: Int8, variant: Int8)]

    /// The number of routes.
    var count: Int { kind.count }

    /// The trips of a route.
    func trips(of route: Int) -> Range<Int> { firstTrip[route] ..< firstTrip[route + 1] }

    /// The stops a trip of `variant` (0 full, 1 short-turn) serves.
    func stopCount(route: Int, variant: Int) -> Int { variant == 1 ? shortLength[route] : length[route] }

    /// Generates the routes over a stop network.
    init(size: FeedSize, stops: StopNetwork, seed: UInt64) {
        let drawn = DrawnRoutes(size: size, seed: seed)
        // Trips per route: at least one each way where there are enough, the rest by weight.
        let minimum = size.trips >= 2 * size.routes ? 2 : 1
        let tripCounts = Self.distribute(size.trips, weights: drawn.tripWeights, minimum: minimum)
        var firstTrip = [0]
        for count in tripCounts { firstTrip.append(firstTrip[firstTrip.count - 1] + count) }

        // Stops per trip: scale the lengths so the stop times come close to the target.
        let maximum = max(2, min(120, stops.stationCount))
        func effective(_ length: Int) -> Double {
            length >= 6 ? 0.8 * Double(length) + 0.2 * Double(max(2, length * 6 / 10)) : Double(length)
        }
        let planned = zip(tripCounts, drawn.baseLength).reduce(0.0) { $0 + Double($1.0) * effective($1.1) }
        let factor = planned > 0 ? Double(size.stopTimesTarget) / planned : 1
        let length = drawn.baseLength.map { min(maximum, max(2, Int((Double($0) * factor).rounded()))) }
        let shortLength = length.map { $0 >= 6 ? max(2, $0 * 6 / 10) : 0 }
        let patterns = Patterns(kind: drawn.kind, length: length, shortLength: shortLength, stops: stops, seed: seed)

        kind = drawn.kind
        agency = drawn.agency
        routeIDs = drawn.routeIDs
        shortNames = drawn.shortNames
        self.firstTrip = firstTrip
        self.length = length
        self.shortLength = shortLength
        patternStart = patterns.patternStart
        platforms = patterns.platforms
        minutes = patterns.minutes
        serviceStart = drawn.serviceStart
        services = drawn.services
        firstDeparture = drawn.first
        lastDeparture = drawn.last
        headsigns = patterns.headsigns
        (shapeNumber, shapes) = Self.shapes(shortLength: shortLength)
    }

    /// Each route's own draws: kind, agency, names, base length, weight, services and hours.
    private struct DrawnRoutes {
        var kind: [Int] = []
        var agency: [Int] = []
        var routeIDs = ByteTable()
        var shortNames: [String] = []
        var baseLength: [Int] = []
        var tripWeights: [Double] = []
        var serviceStart = [0]
        var services: [Int32] = []
        var first: [Int] = []
        var last: [Int] = []

        init(size: FeedSize, seed: UInt64) {
            let kinds = RouteKind.all
            for route in 0 ..< size.routes {
                var random = SplitMix64(seed: seed, stream: .routes, index: route)
                let k = route < kinds.count ? route : random.weightedIndex(kinds.map(\.share))
                let routeKind = kinds[k]
                kind.append(k)
                agency.append(RouteNetwork.agency(routeKind.agency, count: size.agencies, random: &random))
                routeIDs.append("\(10_000 + route)_\(routeKind.routeType)")
                shortNames.append(random.pick(routeKind.names))
                baseLength.append(random.int(in: routeKind.stops))
                tripWeights.append(routeKind.tripWeight * (0.5 + random.unit()))
                for _ in 0 ..< random.int(in: 1 ... 3) { services.append(Int32(random.below(size.services))) }
                serviceStart.append(services.count)
                if routeKind.night {
                    first.append(24 * 3600 + (30 + random.below(30)) * 60)
                    last.append(27 * 3600 + random.below(60) * 60)
                } else {
                    first.append((4 * 60 + random.below(120)) * 60)
                    last.append((23 * 60 + random.below(150)) * 60)
                }
            }
        }
    }

    /// The routes' stop patterns: a walk along the stations' Z-curve order, one platform per direction,
    /// the minutes between stops, and the headsigns.
    private struct Patterns {
        var patternStart: [Int] = []
        var platforms: [[Int32]] = [[], []]
        var minutes: [[Int32]] = [[], []]
        var headsigns = ByteTable()

        init(kind: [Int], length: [Int], shortLength: [Int], stops: StopNetwork, seed: UInt64) {
            for route in kind.indices {
                var random = SplitMix64(seed: seed, stream: .patterns, index: route)
                patternStart.append(platforms[0].count)
                var station = random.below(stops.stationCount)
                let side = random.below(8)
                var stations: [Int] = []
                for _ in 0 ..< length[route] {
                    stations.append(station)
                    station = (station + random.int(in: 1 ... 3)) % stops.stationCount
                }
                add(stations, side: side, speed: RouteKind.all[kind[route]].speed, stops: stops)
                addHeadsigns(stations, shortLength: shortLength[route], stops: stops)
            }
        }

        /// The platforms of `stations` both ways, and the minutes between them.
        private mutating func add(_ stations: [Int], side: Int, speed: Double, stops: StopNetwork) {
            var forward: [Int32] = []
            var backward: [Int32] = []
            for station in stations {
                let own = stops.platforms(of: station)
                forward.append(Int32(own.lowerBound + side % own.count))
                backward.append(Int32(own.lowerBound + (side + 1) % own.count))
            }
            backward.reverse()
            for (direction, path) in [forward, backward].enumerated() {
                platforms[direction].append(contentsOf: path)
                for index in path.indices {
                    guard index + 1 < path.count else {
                        minutes[direction].append(0)
                        continue
                    }
                    let metres = RouteNetwork.metres(stops, Int(path[index]), Int(path[index + 1]))
                    minutes[direction].append(Int32(min(20, max(1, Int((metres / speed / 60).rounded())))))
                }
            }
        }

        /// The last station of each direction and variant, then two with a quoted note.
        private mutating func addHeadsigns(_ stations: [Int], shortLength: Int, stops: StopNetwork) {
            let short = shortLength > 0 ? shortLength : stations.count
            let ends = [
                stations[stations.count - 1], stations[max(0, short - 1)], stations[0], stations[stations.count - short],
            ]
            for end in ends { headsigns.append(stops.stationNames.string(end)) }
            let via = stops.stationNames.string(stations[stations.count / 2])
            headsigns.append(stops.stationNames.string(stations[stations.count - 1]) + " \"über " + via + "\"")
            headsigns.append("Ersatzverkehr \"" + stops.stationNames.string(stations[0]) + "\"")
        }
    }

    /// The shape numbers of `(route, direction, variant)` and the shapes in number order.
    private static func shapes(shortLength: [Int]) -> ([Int32], [(route: Int32, direction: Int8, variant: Int8)]) {
        var shapeNumber: [Int32] = []
        var shapes: [(route: Int32, direction: Int8, variant: Int8)] = []
        for route in shortLength.indices {
            for direction in 0 ..< 2 {
                for variant in 0 ..< 2 {
                    if variant == 0 || shortLength[route] > 0 {
                        shapeNumber.append(Int32(shapes.count))
                        shapes.append((Int32(route), Int8(direction), Int8(variant)))
                    } else {
                        shapeNumber.append(-1)
                    }
                }
            }
        }
        return (shapeNumber, shapes)
    }

    /// The route a global trip index belongs to.
    func route(ofTrip trip: Int) -> Int {
        var low = 0
        var high = count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if firstTrip[middle] <= trip { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// Straight-line distance in metres between two platforms (flat-earth approximation at 52.5° N).
    static func metres(_ stops: StopNetwork, _ a: Int, _ b: Int) -> Double {
        let north = Double(stops.platformLatitude[b] - stops.platformLatitude[a]) * 0.1113
        let east = Double(stops.platformLongitude[b] - stops.platformLongitude[a]) * 0.0678
        return (north * north + east * east).squareRoot()
    }

    /// The agency of a kind's operator, or a regional company; always one of the feed's agencies.
    private static func agency(_ operatorIndex: Int, count: Int, random: inout SplitMix64) -> Int {
        if operatorIndex >= 0 { return operatorIndex % count }
        return count > 4 ? 4 + random.below(count - 4) : random.below(count)
    }

    /// Splits `total` into parts proportional to `weights`, each at least `minimum`, summing exactly to
    /// `total` (when `total` allows the minimum).
    static func distribute(_ total: Int, weights: [Double], minimum: Int) -> [Int] {
        let spare = max(0, total - minimum * weights.count)
        let sum = weights.reduce(0, +)
        var parts: [Int] = []
        var before = 0.0
        var given = 0
        for weight in weights {
            before += weight
            let upTo = sum > 0 ? Int((Double(spare) * before / sum).rounded(.down)) : 0
            parts.append(minimum + upTo - given)
            given = upTo
        }
        if let last = parts.indices.last { parts[last] += spare - given }
        return parts
    }
}
