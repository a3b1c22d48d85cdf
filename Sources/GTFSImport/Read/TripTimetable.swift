public import GTFS

/// A trip with its stop times, from ``GTFSStore/trip(_:feed:)``.
public struct TripTimetable: Sendable, Hashable {
    /// The trip.
    public var trip: Trip
    /// Its stop times, in `stop_sequence` order.
    public var stopTimes: [StopTime]
}
