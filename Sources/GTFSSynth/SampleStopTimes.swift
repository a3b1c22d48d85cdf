import Foundation
import GTFS

/// Stop times for a real feed that has none (the bundled Berlin 2025 subset): for each route a plausible
/// line through the feed's own stops, walked in each trip's direction, with trips spread over the day, so
/// the real trips, routes, services and stops can be queried like a whole timetable.
///
/// Generated, not real: each route runs through nearby stations one after the other (platforms of one
/// station count as one stop; a direction keeps to one platform where a station has several), through a
/// hub in its middle (the stations with the most platforms, in turn), at a speed of its mode; the trips of a route and
/// direction start at even intervals from 05:00 to 01:00, the last ones past midnight (`24:xx:xx`). The
/// same feed and seed give the same bytes.
///
/// ```swift
/// let text = try SampleStopTimes(feedDirectory: "SampleData/berlin/vbb-2025-subset", seed: 1).csv()
/// ```
package struct SampleStopTimes: Sendable {
    struct Place {
        let platforms: [String]
        let latitude: Double
        let longitude: Double
    }

    struct Line {
        let places: [Int]
    }

    private let places: [Place]
    private let routes: [(id: String, type: Int)]
    private let trips: [(id: String, route: String, direction: Int)]
    private let seed: UInt64

    /// Reads the stops, routes and trips of the feed in `feedDirectory`.
    /// - Throws: ``GTFS/GTFSError`` when the files cannot be read.
    package init(feedDirectory: String, seed: UInt64) throws {
        self.seed = seed
        var stops: [Stop] = []
        var routes: [Route] = []
        var trips: [Trip] = []
        var options = ParseOptions()
        options.tables = [.stops, .routes, .trips]
        try FeedParser(source: FeedSource(path: feedDirectory), options: options).parse { batch in
            stops += batch.records(as: Stop.self) ?? []
            routes += batch.records(as: Route.self) ?? []
            trips += batch.records(as: Trip.self) ?? []
        }
        // Platforms of one station are one place; a stop without a station is a place of its own.
        var byPlace: [String: [Stop]] = [:]
        for stop in stops where stop.locationType == .stop && stop.latitude != nil && stop.longitude != nil {
            byPlace[(stop.parentStation ?? stop.stopID).description, default: []].append(stop)
        }
        places = byPlace.keys.sorted().compactMap { key in
            guard let members = byPlace[key]?.sorted(by: { $0.stopID.description < $1.stopID.description }), !members.isEmpty else { return nil }
            let latitude = members.compactMap(\.latitude).reduce(0, +) / Double(members.count)
            let longitude = members.compactMap(\.longitude).reduce(0, +) / Double(members.count)
            return Place(platforms: members.map(\.stopID.description), latitude: latitude, longitude: longitude)
        }
        self.routes = routes.map { ($0.routeID.description, $0.routeType.code) }.sorted { $0.id < $1.id }
        self.trips = trips.map { ($0.tripID.description, $0.routeID.description, $0.directionID?.code ?? 0) }
            .sorted { ($0.route, $0.direction, $0.id) < ($1.route, $1.direction, $1.id) }
    }

    /// `stop_times.txt`: header and one row per trip and stop, trips in route, direction and id order.
    package func csv() -> String {
        var text = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
        guard places.count >= 2 else { return text }
        var lines: [String: (line: Line, speed: Double)] = [:]
        // The busiest lines start at the stations with the most platforms, as real lines meet at the hubs.
        let hubs = places.indices.sorted { (places[$1].platforms.count, $0) < (places[$0].platforms.count, $1) }
        var tripsPerRoute: [String: Int] = [:]
        for trip in trips { tripsPerRoute[trip.route, default: 0] += 1 }
        let busiest = routes.indices.sorted { ((tripsPerRoute[routes[$1].id] ?? 0), $0) < ((tripsPerRoute[routes[$0].id] ?? 0), $1) }
        for (rank, index) in busiest.enumerated() {
            var random = SplitMix64(seed: seed, stream: .patterns, index: index)
            let route = routes[index]
            lines[route.id] = (line(for: route.type, from: hubs[rank % hubs.count], random: &random), Self.speed(route.type))
        }
        var index = 0
        while index < trips.count {
            // The trips of one route and direction.
            var end = index
            while end < trips.count && trips[end].route == trips[index].route && trips[end].direction == trips[index].direction { end += 1 }
            if let (line, speed) = lines[trips[index].route] {
                let count = end - index
                let places = trips[index].direction == 1 ? Array(line.places.reversed()) : line.places
                // Even intervals from 05:00 to 01:00 the next morning.
                let interval = max(60, 20 * 3600 / max(1, count) / 60 * 60)
                for (offset, trip) in trips[index ..< end].enumerated() {
                    var time = 5 * 3600 + offset * interval
                    for (sequence, place) in places.enumerated() {
                        if sequence > 0 {
                            let from = self.places[places[sequence - 1]], to = self.places[place]
                            let meters = Self.meters(from.latitude, from.longitude, to.latitude, to.longitude)
                            time += max(60, Int((meters / speed / 60).rounded(.up)) * 60)
                        }
                        let platforms = self.places[place].platforms
                        let platform = platforms[trips[index].direction == 1 ? platforms.count - 1 : 0]
                        let clock = GTFSTime(seconds: Int32(clamping: time)).description
                        text += "\(trip.id),\(clock),\(clock),\(platform),\(sequence + 1)\n"
                    }
                }
            }
            index = end
        }
        return text
    }

    /// A line through nearby places, each hop within the mode's reach and roughly onward.
    /// A line through nearby places with the hub `start` in its middle: a walk from the hub one way, and
    /// one the other way, each hop within the mode's reach and roughly onward.
    private func line(for routeType: Int, from start: Int, random: inout SplitMix64) -> Line {
        let (length, reach): (Int, ClosedRange<Double>) =
            switch routeType {
            case 100 ..< 200, 2: (random.below(5) + 6, 700 ... 3500)
            case 400 ..< 500, 1: (random.below(6) + 8, 500 ... 1800)
            case 900 ..< 1000, 0: (random.below(8) + 10, 300 ... 1200)
            default: (random.below(10) + 12, 250 ... 1000)
            }
        var used: Set<Int> = [start]
        let onward = walk(from: [start], length: (length + 1) / 2, reach: reach, used: &used, random: &random)
        // Back the other way: a virtual first step from the onward side makes "onward" mean away from it.
        var back = [start]
        if onward.count >= 2 {
            back = walk(from: [onward[1], start], length: length / 2 + 2, reach: reach, used: &used, random: &random)
            back.removeFirst()
        }
        var chosen = Array(back.dropFirst().reversed()) + onward
        if chosen.count < 2 {
            // No place within reach: the nearest one.
            let nearest = places.indices.filter { $0 != start }.min {
                Self.meters(places[start].latitude, places[start].longitude, places[$0].latitude, places[$0].longitude)
                    < Self.meters(places[start].latitude, places[start].longitude, places[$1].latitude, places[$1].longitude)
            }
            if let nearest { chosen = [start, nearest] }
        }
        return Line(places: chosen)
    }

    /// Extends `chosen` to `length` places, each next one within `reach`, turning by less than 90 degrees,
    /// one of the three nearest.
    private func walk(
        from chosen: [Int], length: Int, reach: ClosedRange<Double>, used: inout Set<Int>, random: inout SplitMix64
    ) -> [Int] {
        var chosen = chosen
        while chosen.count < length, let current = chosen.last {
            let here = places[current]
            let previous = chosen.count >= 2 ? places[chosen[chosen.count - 2]] : nil
            let candidates = places.indices.filter { !used.contains($0) }.compactMap { index -> (Int, Double)? in
                let there = places[index]
                let meters = Self.meters(here.latitude, here.longitude, there.latitude, there.longitude)
                guard reach.contains(meters) else { return nil }
                if let previous {
                    let forward = (here.latitude - previous.latitude) * (there.latitude - here.latitude)
                        + (here.longitude - previous.longitude) * (there.longitude - here.longitude)
                    guard forward > 0 else { return nil }
                }
                return (index, meters)
            }
            guard !candidates.isEmpty else { break }
            // One of the three nearest, so lines do not all take the same street.
            let nearest = candidates.sorted { ($0.1, $0.0) < ($1.1, $1.0) }.prefix(3)
            let next = nearest[nearest.startIndex + random.below(nearest.count)].0
            chosen.append(next)
            used.insert(next)
        }
        return chosen
    }

    /// Writes ``csv()`` to `path`, gzipped when the path ends in `.gz`.
    /// - Returns: the number of rows.
    /// - Throws: ``SyntheticFeedError`` when the file cannot be written.
    package func write(toPath path: String) throws -> Int {
        let text = csv()
        let file = try FileSink(path: path)
        let bytes = Array(text.utf8)
        if path.hasSuffix(".gz") {
            let gzip = try DeflateStream(container: .gzip, level: 9, target: file, name: path)
            try bytes.withUnsafeBytes { try gzip.write($0) }
            try gzip.finish()
        } else {
            try file.write(bytes)
        }
        try file.close()
        return text.reduce(0) { $1 == "\n" ? $0 + 1 : $0 } - 1
    }

    /// Meters per second by mode, stops included.
    private static func speed(_ routeType: Int) -> Double {
        switch routeType {
        case 100 ..< 109, 2: 60 / 3.6
        case 109 ..< 200: 40 / 3.6
        case 400 ..< 500, 1: 32 / 3.6
        case 900 ..< 1000, 0: 19 / 3.6
        default: 18 / 3.6
        }
    }

    private static func meters(_ latitude1: Double, _ longitude1: Double, _ latitude2: Double, _ longitude2: Double) -> Double {
        let radians = Double.pi / 180
        let x = (longitude2 - longitude1) * radians * cos((latitude1 + latitude2) / 2 * radians)
        let y = (latitude2 - latitude1) * radians
        return (x * x + y * y).squareRoot() * 6_371_008.8
    }
}
