import GTFS

/// `stops.txt`: every station (`location_type` 1) followed by its platforms (`location_type` 0, with
/// `parent_station`); rail platforms have tracks (`…, Gleis 2`, `platform_code` 2) and often a level.
struct StopsTable: FeedTable {
    let model: FeedModel
    typealias Record = Stop
    let fields: [Stop.Field] = [
        .stopID, .stopCode, .stopName, .stopDesc, .stopLat, .stopLon, .locationType, .parentStation,
        .wheelchairBoarding, .platformCode, .zoneID, .levelID,
    ]

    private static let zones = ["Berlin A", "Berlin B", "Berlin C"]

    func writeRows(to out: RowBuffer) throws {
        let stops = model.stops
        try stops.stationIDs.withReader { stationIDs in
            try stops.platformIDs.withReader { platformIDs in
                try stops.stationNames.withReader { names in
                    for station in 0 ..< stops.stationCount {
                        let zone = Self.zones[Int(stops.stationZone[station])]
                        out.bytes(stationIDs[station])
                        out.comma()
                        out.comma()
                        out.field(names[station])
                        out.comma()
                        out.comma()
                        out.microdegrees(Int(stops.stationLatitude[station]))
                        out.comma()
                        out.microdegrees(Int(stops.stationLongitude[station]))
                        out.ascii(",1,,")
                        out.int(Int(stops.stationWheelchair[station]))
                        out.comma()
                        out.comma()
                        out.ascii(zone)
                        out.comma()
                        try out.endRow()

                        let rail = stops.stationIsRail[station]
                        for (track, platform) in stops.platforms(of: station).enumerated() {
                            var random = SplitMix64(seed: model.seed, stream: .platformTexts, index: platform)
                            out.bytes(platformIDs[platform])
                            out.comma()
                            if random.chance(0.1) { out.int(random.int(in: 1 ... 9)) }
                            out.comma()
                            if rail {
                                out.text(names.text(station) + ", Gleis \(track + 1)")
                            } else {
                                out.field(names[station])
                            }
                            out.comma()
                            if rail {
                                out.ascii("Bahnsteig Gleis \(track + 1)")
                            } else if random.chance(0.4) {
                                out.text(Self.description(&random))
                            }
                            out.comma()
                            out.microdegrees(Int(stops.platformLatitude[platform]))
                            out.comma()
                            out.microdegrees(Int(stops.platformLongitude[platform]))
                            out.ascii(",0,")
                            out.bytes(stationIDs[station])
                            out.comma()
                            out.int(random.weightedIndex([0.2, 0.7, 0.1]))
                            out.comma()
                            if rail { out.int(track + 1) }
                            out.comma()
                            out.ascii(zone)
                            out.comma()
                            let level = Int(stops.platformLevel[platform])
                            if level > 0 { out.int(level) }
                            try out.endRow()
                        }
                    }
                }
            }
        }
    }

    /// `Bushaltestelle Müllerstr. vor Seestr.`
    private static func description(_ random: inout SplitMix64) -> String {
        random.pick(Texts.platformKinds) + " " + random.pick(Texts.streets) + random.pick([" vor ", " hinter ", " gegenüber "])
            + random.pick(Texts.streets)
    }
}

extension ByteTable.Reader {
    /// String `index` as text.
    func text(_ index: Int) -> String {
        String(decoding: self[index], as: UTF8.self)
    }
}
