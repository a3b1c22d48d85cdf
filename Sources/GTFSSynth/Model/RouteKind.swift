/// A kind of VBB line: its `route_type` (mostly Google extended types, as VBB writes them), how its lines
/// are named, how long and fast they are, how many trips they run, and who operates them.
struct RouteKind {
    /// `route_type`.
    let routeType: Int
    /// How common the kind is among routes.
    let share: Double
    /// How many trips a route of this kind runs, relative to a city bus.
    let tripWeight: Double
    /// Stops on a full trip before the feed is sized (scaled so the stop times match the target).
    let stops: ClosedRange<Int>
    /// Travel speed in metres per second, stops included.
    let speed: Double
    /// Minutes a vehicle waits at intermediate stops (arrival before departure).
    let dwell: Int
    /// Runs at night (first departure 00:30 to 01:00, last 03:00 to 04:00, written as 24:30 … 27:59).
    let night: Bool
    /// Has a line colour.
    let colored: Bool
    /// Rail: trains have numbers (`trip_short_name`) and platforms have tracks (`Gleis`).
    let rail: Bool
    /// Intermediate stops on request only (`pickup_type` and `drop_off_type` 2).
    let onDemand: Bool
    /// The agency, by index: 0 S-Bahn, 1 BVG, 2 DB Regio, 3 ODEG, -1 a regional bus company.
    let agency: Int
    /// The line names of the kind.
    let names: [String]

    /// The kinds, in the order the first routes take them (so even a tiny feed has every kind).
    static let all: [RouteKind] = [
        RouteKind(
            routeType: 109, share: 0.02, tripWeight: 2.5, stops: 10 ... 30, speed: 11, dwell: 0, night: false,
            colored: true, rail: true, onDemand: false, agency: 0,
            names: ["S1", "S2", "S25", "S26", "S3", "S41", "S42", "S45", "S46", "S47", "S5", "S7", "S75", "S8", "S85", "S9"]),
        RouteKind(
            routeType: 400, share: 0.01, tripWeight: 3, stops: 10 ... 28, speed: 9, dwell: 0, night: false,
            colored: true, rail: true, onDemand: false, agency: 1, names: (1 ... 9).map { "U\($0)" }),
        RouteKind(
            routeType: 900, share: 0.05, tripWeight: 2.5, stops: 15 ... 35, speed: 5.5, dwell: 0, night: false,
            colored: true, rail: false, onDemand: false, agency: 1,
            names: ["M1", "M2", "M4", "M5", "M6", "M8", "M10", "M13", "M17"] + (12 ... 68).map { String($0) }),
        RouteKind(
            routeType: 700, share: 0.6, tripWeight: 1, stops: 12 ... 38, speed: 5, dwell: 0, night: false,
            colored: false, rail: false, onDemand: false, agency: 1,
            names: (100 ... 399).map { String($0) } + (11 ... 85).map { "M\($0)" } + (7 ... 83).map { "X\($0)" }),
        RouteKind(
            routeType: 106, share: 0.03, tripWeight: 0.6, stops: 6 ... 20, speed: 17, dwell: 1, night: false,
            colored: false, rail: true, onDemand: false, agency: 2,
            names: (1 ... 10).map { "RE\($0)" } + (10 ... 66).map { "RB\($0)" }),
        RouteKind(
            routeType: 3, share: 0.08, tripWeight: 0.5, stops: 10 ... 30, speed: 7, dwell: 0, night: false,
            colored: false, rail: false, onDemand: false, agency: -1, names: (400 ... 999).map { String($0) }),
        RouteKind(
            routeType: 700, share: 0.05, tripWeight: 0.3, stops: 15 ... 40, speed: 7, dwell: 0, night: true,
            colored: false, rail: false, onDemand: false, agency: 1, names: (1 ... 97).map { "N\($0)" }),
        RouteKind(
            routeType: 1000, share: 0.01, tripWeight: 0.3, stops: 2 ... 6, speed: 4, dwell: 0, night: false,
            colored: false, rail: false, onDemand: false, agency: 1, names: (10 ... 24).map { "F\($0)" }),
        RouteKind(
            routeType: 2, share: 0.005, tripWeight: 0.4, stops: 3 ... 8, speed: 22, dwell: 2, night: false,
            colored: false, rail: true, onDemand: false, agency: 2, names: ["FEX", "IC 17", "ICE 28", "EC 95"]),
        RouteKind(
            routeType: 715, share: 0.01, tripWeight: 0.15, stops: 6 ... 15, speed: 6, dwell: 0, night: false,
            colored: false, rail: false, onDemand: true, agency: -1, names: (1 ... 40).map { "Rufbus \($0)" }),
        RouteKind(
            routeType: 100, share: 0.005, tripWeight: 0.3, stops: 3 ... 10, speed: 20, dwell: 1, night: false,
            colored: false, rail: true, onDemand: false, agency: 3, names: ["RE1", "RB26", "RB36", "RB54", "RB60"]),
        RouteKind(
            routeType: 4, share: 0.005, tripWeight: 0.2, stops: 2 ... 4, speed: 3.5, dwell: 0, night: false,
            colored: false, rail: false, onDemand: false, agency: -1, names: ["Fähre Ketzin", "Fähre Caputh", "Fähre Woltersdorf"]),
    ]
}
