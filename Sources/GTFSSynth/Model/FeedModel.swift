/// Everything a feed's tables are written from: the sizes, the stops and the routes, all derived from
/// the scale and the seed. Trips, services, shapes and transfers are derived row by row while writing.
struct FeedModel {
    let scale: Double
    let seed: UInt64
    let size: FeedSize
    let stops: StopNetwork
    let routes: RouteNetwork

    init(scale: Double, seed: UInt64) {
        self.scale = scale
        self.seed = seed
        size = FeedSize(scale: scale)
        stops = StopNetwork(size: size, seed: seed)
        routes = RouteNetwork(size: size, stops: stops, seed: seed)
    }

}
