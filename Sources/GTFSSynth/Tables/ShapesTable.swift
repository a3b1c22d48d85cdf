import GTFS

/// `shapes.txt`: one shape per route, direction and variant, through the platforms its trips serve,
/// with points in between (a little off the straight line) so the total meets the target: the spare
/// points are spread evenly over all the feed's stop-to-stop segments. Most shapes carry
/// `shape_dist_traveled` in metres; every fourth leaves it empty.
struct ShapesTable: FeedTable {
    let model: FeedModel
    typealias Record = ShapePoint
    let fields: [ShapePoint.Field] = [.shapeID, .shapePtLat, .shapePtLon, .shapePtSequence, .shapeDistTraveled]

    func writeRows(to out: RowBuffer) throws {
        let routes = model.routes
        let stops = model.stops
        var stopPoints = 0
        var segments = 0
        for shape in routes.shapes {
            let count = routes.stopCount(route: Int(shape.route), variant: Int(shape.variant))
            stopPoints += count
            segments += count - 1
        }
        let spare = max(0, model.size.shapePointsTarget - stopPoints)
        var segment = 0
        for (number, shape) in routes.shapes.enumerated() {
            var random = SplitMix64(seed: model.seed, stream: .shapes, index: number)
            let route = Int(shape.route)
            let count = routes.stopCount(route: route, variant: Int(shape.variant))
            let start = routes.patternStart[route]
            let platforms = routes.platforms[Int(shape.direction)]
            let withDistance = number % 4 != 3
            var sequence = 1
            var distance = 0.0
            var previous: (latitude: Int, longitude: Int)?

            func point(_ latitude: Int, _ longitude: Int) throws {
                if let previous {
                    let north = Double(latitude - previous.latitude) * 0.1113
                    let east = Double(longitude - previous.longitude) * 0.0678
                    distance += (north * north + east * east).squareRoot()
                }
                previous = (latitude, longitude)
                out.int(number + 1)
                out.comma()
                out.microdegrees(latitude)
                out.comma()
                out.microdegrees(longitude)
                out.comma()
                out.int(sequence)
                out.comma()
                if withDistance { out.tenths(Int((distance * 10).rounded())) }
                try out.endRow()
                sequence += 1
            }

            for stop in 0 ..< count {
                let from = Int(platforms[start + stop])
                let latitude = Int(stops.platformLatitude[from])
                let longitude = Int(stops.platformLongitude[from])
                try point(latitude, longitude)
                guard stop + 1 < count else { break }
                let to = Int(platforms[start + stop + 1])
                let extra = segments > 0 ? (segment + 1) * spare / segments - segment * spare / segments : 0
                segment += 1
                let northward = Int(stops.platformLatitude[to]) - latitude
                let eastward = Int(stops.platformLongitude[to]) - longitude
                var step = 1
                while step <= extra {
                    try point(
                        latitude + northward * step / (extra + 1) + random.int(in: -15 ... 15),
                        longitude + eastward * step / (extra + 1) + random.int(in: -15 ... 15))
                    step += 1
                }
            }
        }
    }
}
