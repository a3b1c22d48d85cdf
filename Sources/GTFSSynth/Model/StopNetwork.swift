/// The stations and platforms of the feed: positions around Berlin, VBB-style ids and names.
///
/// Stations are stored in Morton (Z-curve) order of their position, so stations with nearby indices are
/// mostly near each other: routes walk along that order. Each station has one or more platforms
/// (`de:11000:900100001::1`, `::2`, …) stored contiguously.
struct StopNetwork {
    /// Coordinates are kept in millionths of a degree: the feed writes 6 decimals.
    static let south = 52_300_000, north = 52_700_000, west = 13_000_000, east = 13_800_000
    static let centerLatitude = 52_520_000, centerLongitude = 13_405_000

    let stationCount: Int
    let platformCount: Int
    let stationLatitude: [Int32]
    let stationLongitude: [Int32]
    /// `de:11000:900100001`.
    let stationIDs: ByteTable
    /// Raw names (`S+U Alexanderplatz Bhf (Berlin)`), not CSV-encoded.
    let stationNames: ByteTable
    let stationIsRail: [Bool]
    let stationWheelchair: [UInt8]
    /// Fare zone 0, 1, 2 for A, B, C.
    let stationZone: [UInt8]
    /// Platforms of station `i`: `firstPlatform[i] ..< firstPlatform[i + 1]`.
    let firstPlatform: [Int32]

    let platformLatitude: [Int32]
    let platformLongitude: [Int32]
    let platformStation: [Int32]
    /// `de:11000:900100001::1`.
    let platformIDs: ByteTable
    /// 1-based level number, 0 when the platform has no level.
    let platformLevel: [Int32]

    /// Generates the network.
    init(size: FeedSize, seed: UInt64) {
        stationCount = size.stations
        platformCount = size.platforms
        let positions = Self.positions(count: stationCount, seed: seed)
        stationLatitude = positions.map { Int32($0.latitude) }
        stationLongitude = positions.map { Int32($0.longitude) }

        var ids = ByteTable()
        var names = ByteTable()
        var isRail: [Bool] = []
        var wheelchair: [UInt8] = []
        var zones: [UInt8] = []
        var first: [Int32] = [0]
        for station in 0 ..< stationCount {
            var random = SplitMix64(seed: seed, stream: .stations, index: station)
            let place = Self.place(latitude: positions[station].latitude, longitude: positions[station].longitude)
            let rail = random.chance(0.09)
            ids.append("de:\(place.code):\(900_100_001 + station)")
            names.append(Self.name(rail: rail, town: place.town(&random), random: &random))
            isRail.append(rail)
            wheelchair.append(UInt8(random.weightedIndex([0.3, 0.6, 0.1])))
            zones.append(place.zone)
            first.append(0)
        }
        // Platforms per station: an even share (Bresenham), then shifted between neighbours so counts vary.
        let (stations, platforms) = (size.stations, size.platforms)
        var perStation = (0 ..< stations).map { i in (i + 1) * platforms / stations - i * platforms / stations }
        var shuffle = SplitMix64(seed: seed, stream: .platforms, index: -1)
        var pair = 0
        while pair + 1 < stationCount {
            let shift = shuffle.int(in: -1 ... 1)
            if perStation[pair] + shift >= 1, perStation[pair + 1] - shift >= 1, perStation[pair] + shift <= 8 {
                perStation[pair] += shift
                perStation[pair + 1] -= shift
            }
            pair += 2
        }
        for station in 0 ..< stationCount {
            first[station + 1] = first[station] + Int32(perStation[station])
        }

        var platformIDs = ByteTable()
        var latitudes: [Int32] = []
        var longitudes: [Int32] = []
        var parents: [Int32] = []
        var levels: [Int32] = []
        latitudes.reserveCapacity(platformCount)
        longitudes.reserveCapacity(platformCount)
        parents.reserveCapacity(platformCount)
        levels.reserveCapacity(platformCount)
        for station in 0 ..< stationCount {
            var random = SplitMix64(seed: seed, stream: .platforms, index: station)
            let stationID = ids.string(station)
            for number in 1 ... perStation[station] {
                platformIDs.append(stationID + "::" + String(number))
                let latitude = Int(stationLatitude[station]) + random.int(in: -250 ... 250)
                let longitude = Int(stationLongitude[station]) + random.int(in: -400 ... 400)
                latitudes.append(Int32(min(max(latitude, Self.south), Self.north)))
                longitudes.append(Int32(min(max(longitude, Self.west), Self.east)))
                parents.append(Int32(station))
                levels.append(isRail[station] && random.chance(0.7) ? Int32(random.int(in: 1 ... size.levels)) : 0)
            }
        }
        stationIDs = ids
        stationNames = names
        stationIsRail = isRail
        stationWheelchair = wheelchair
        stationZone = zones
        firstPlatform = first
        self.platformIDs = platformIDs
        platformLatitude = latitudes
        platformLongitude = longitudes
        platformStation = parents
        platformLevel = levels
    }

    /// The platforms of a station.
    func platforms(of station: Int) -> Range<Int> {
        Int(firstPlatform[station]) ..< Int(firstPlatform[station + 1])
    }

    // MARK: Positions

    /// Station positions: most clustered around the centre, some spread over the whole area; sorted along
    /// a Z-curve.
    private static func positions(count: Int, seed: UInt64) -> [(latitude: Int, longitude: Int)] {
        var points: [(latitude: Int, longitude: Int, key: UInt64)] = []
        points.reserveCapacity(count)
        for index in 0 ..< count {
            var random = SplitMix64(seed: seed, stream: .stations, index: -1 - index)
            let latitude: Int
            let longitude: Int
            if random.chance(0.8) {
                // About normal: the sum of four uniform numbers.
                func spread(_ random: inout SplitMix64) -> Double {
                    (random.unit() + random.unit() + random.unit() + random.unit() - 2) * 1.732
                }
                latitude = centerLatitude + Int(spread(&random) * 70_000)
                longitude = centerLongitude + Int(spread(&random) * 120_000)
            } else {
                latitude = south + random.below(north - south)
                longitude = west + random.below(east - west)
            }
            let clampedLatitude = min(max(latitude, south + 1_000), north - 1_000)
            let clampedLongitude = min(max(longitude, west + 1_000), east - 1_000)
            points.append((clampedLatitude, clampedLongitude, mortonKey(clampedLatitude, clampedLongitude)))
        }
        // The key and the generation order make a total order: the sort is deterministic.
        let order = points.indices.sorted { (points[$0].key, $0) < (points[$1].key, $1) }
        return order.map { (points[$0].latitude, points[$0].longitude) }
    }

    /// The interleaved bits of a position's 16-bit grid coordinates.
    private static func mortonKey(_ latitude: Int, _ longitude: Int) -> UInt64 {
        let y = UInt64((latitude - south) * 65_535 / (north - south))
        let x = UInt64((longitude - west) * 65_535 / (east - west))
        var key: UInt64 = 0
        for bit in 0 ..< 16 {
            key |= (x >> bit & 1) << (2 * bit) | (y >> bit & 1) << (2 * bit + 1)
        }
        return key
    }

    // MARK: Names

    /// Where a position is: Berlin (zones A and B) or a Brandenburg district by compass sector (zone C).
    private struct Place {
        let code: String
        let towns: [String]
        let zone: UInt8

        func town(_ random: inout SplitMix64) -> String { random.pick(towns) }
    }

    private static func place(latitude: Int, longitude: Int) -> Place {
        let north = Double(latitude - centerLatitude) / 1_000_000 * 111.3
        let east = Double(longitude - centerLongitude) / 1_000_000 * 67.8
        let inBerlin = (north / 19) * (north / 19) + (east / 22) * (east / 22)
        if inBerlin < 1 {
            return Place(code: Texts.berlinCode, towns: ["Berlin"], zone: inBerlin < 0.3 ? 0 : 1)
        }
        var angle = atan2Approximation(north, east)
        if angle < 0 { angle += 2 * Double.pi }
        let sectors = Texts.districts.count
        let sector = Int((angle / (2 * Double.pi) * Double(sectors)).rounded()) % sectors
        return Place(code: Texts.districts[sector].code, towns: Texts.districts[sector].towns, zone: 2)
    }

    /// `atan2(y, x)` to within 0.01 rad, without Foundation.
    private static func atan2Approximation(_ y: Double, _ x: Double) -> Double {
        if x == 0 && y == 0 { return 0 }
        let ax = abs(x), ay = abs(y)
        let ratio = min(ax, ay) / max(ax, ay)
        let square = ratio * ratio
        var angle = ((-0.046_496_5 * square + 0.159_314_22) * square - 0.327_622_76) * square * ratio + ratio
        if ay > ax { angle = Double.pi / 2 - angle }
        if x < 0 { angle = Double.pi - angle }
        return y < 0 ? -angle : angle
    }

    /// A station name: `S+U Alexanderplatz Bhf (Berlin)`, `Berlin, Lindenstr./Oranienstr.`,
    /// `Erkner, Bahnhofstraße`, `S Bernau bei Berlin Bhf`.
    private static func name(rail: Bool, town: String, random: inout SplitMix64) -> String {
        let inBerlin = town == "Berlin"
        if rail {
            if inBerlin {
                let prefix = random.pick(["S+U ", "S ", "S ", "U ", "U ", ""])
                let bahnhof = prefix.isEmpty || random.chance(0.4) ? " Bhf" : ""
                return prefix + random.pick(Texts.railPlaces) + bahnhof + " (Berlin)"
            }
            return random.pick(["S ", "S ", ""]) + town + " Bhf"
        }
        let street = random.below(Texts.streets.count)
        // A crossing: another street (the next one in the list when the draw repeats the first).
        let other = random.below(Texts.streets.count)
        let crossing = random.chance(0.35) ? "/" + Texts.streets[other == street ? (other + 1) % Texts.streets.count : other] : ""
        if inBerlin && random.chance(0.3) {
            return Texts.streets[street] + crossing + " (Berlin)"
        }
        return town + ", " + Texts.streets[street] + crossing
    }
}
