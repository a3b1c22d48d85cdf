/// How many of each thing a feed of a given scale has. Scale 1.0 is the size of Berlin's VBB feed:
/// about 42 000 stops, 1 300 routes, 250 000 trips, 6 000 000 stop times and 5 000 000 shape points.
///
/// Every count is the VBB figure times the scale, rounded, and at least 1 (levels, agencies and services
/// included), so the counts grow linearly. Stop times and shape points are targets the network is sized
/// for: the feed has close to that many, and ``SyntheticFeed/Counts`` reports the exact figures.
struct FeedSize {
    /// Agencies (VBB: about 40).
    let agencies: Int
    /// Stations (`location_type` 1), about 30 % of the stops.
    let stations: Int
    /// Platforms (`location_type` 0), every one with a parent station.
    let platforms: Int
    /// Levels of stations.
    let levels: Int
    /// Routes.
    let routes: Int
    /// Trips.
    let trips: Int
    /// The stop times the route lengths are sized for.
    let stopTimesTarget: Int
    /// Shape points: exact, as long as every shape has at least one point per stop it passes.
    let shapePointsTarget: Int
    /// Services (calendar and calendar-date-only).
    let services: Int
    /// Transfers.
    let transfers: Int

    init(scale: Double) {
        func count(_ vbb: Double, atLeast minimum: Int = 1) -> Int {
            max(minimum, Int((vbb * scale).rounded()))
        }
        agencies = count(40)
        let stops = count(42_000, atLeast: 2)
        stations = max(1, Int((Double(stops) * 0.3).rounded()))
        platforms = stops - stations
        levels = count(1_000)
        routes = count(1_300)
        trips = count(250_000)
        stopTimesTarget = count(6_000_000)
        shapePointsTarget = count(5_000_000)
        services = count(2_000)
        transfers = count(30_000)
    }
}
