public import GTFS

/// A stop and how far it is from a point, as a store's `stops(near:_:within:feed:limit:)` finds it.
public struct NearbyStop: Sendable, Hashable {
    /// The stop.
    public var stop: Stop
    /// Its distance from the point, in meters (on a sphere of the Earth's mean radius).
    public var distance: Double

    package init(stop: Stop, distance: Double) {
        self.stop = stop
        self.distance = distance
    }
}

extension NearbyStop: CustomStringConvertible {
    /// One line: the stop's id and name and the distance in whole meters, `de:11000:900100003::3 S+U
    /// Alexanderplatz Bhf (Berlin), 53 m`.
    public var description: String { "\(stop.stopID) \(stop.stopName ?? ""), \(Int(distance.rounded())) m" }
}
