public import GTFS

/// A trip with its stop times, as a store's `trip(_:feed:)` reads it.
public struct TripTimetable: Sendable, Hashable {
    /// The trip.
    public var trip: Trip
    /// Its stop times, in `stop_sequence` order.
    public var stopTimes: [StopTime]

    package init(trip: Trip, stopTimes: [StopTime]) {
        self.trip = trip
        self.stopTimes = stopTimes
    }
}
