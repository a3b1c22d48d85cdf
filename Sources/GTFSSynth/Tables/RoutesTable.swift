import GTFS

/// `routes.txt`: VBB-style ids (`10003_700`), line names (`M41`, `S7`, `RE1`), extended route types
/// (700 bus, 109 S-Bahn, 400 U-Bahn, 900 tram, …) and line colours for rail and tram.
struct RoutesTable: FeedTable {
    let model: FeedModel
    typealias Record = Route
    let fields: [Route.Field] = [
        .routeID, .agencyID, .routeShortName, .routeLongName, .routeType, .routeColor, .routeTextColor, .routeDesc,
    ]

    func writeRows(to out: RowBuffer) throws {
        let routes = model.routes
        let stops = model.stops
        try routes.routeIDs.withReader { ids in
            for route in 0 ..< routes.count {
                let kind = RouteKind.all[routes.kind[route]]
                out.bytes(ids[route])
                out.comma()
                out.ascii(AgencyTable.id(routes.agency[route]))
                out.comma()
                out.text(routes.shortNames[route])
                out.comma()
                if kind.rail {
                    // Regional lines are known by their ends: `S Erkner Bhf - Potsdam, Bahnhofstraße`.
                    let start = routes.patternStart[route]
                    let first = Int(stops.platformStation[Int(routes.platforms[0][start])])
                    let last = Int(stops.platformStation[Int(routes.platforms[0][start + routes.length[route] - 1])])
                    out.text(stops.stationNames.string(first) + " - " + stops.stationNames.string(last))
                }
                out.comma()
                out.int(kind.routeType)
                out.comma()
                if kind.colored { out.ascii(Texts.lineColors[route % Texts.lineColors.count]) }
                out.comma()
                if kind.colored { out.ascii("FFFFFF") }
                out.comma()
                try out.endRow()
            }
        }
    }
}
