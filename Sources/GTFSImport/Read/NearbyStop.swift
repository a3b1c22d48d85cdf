public import GTFS

/// A stop and how far it is from a point, from ``GTFSStore/stops(near:_:within:feed:limit:)``.
public struct NearbyStop: Sendable, Hashable {
    /// The stop.
    public var stop: Stop
    /// Its distance from the point, in meters (on a sphere of the Earth's mean radius).
    public var distance: Double
}
