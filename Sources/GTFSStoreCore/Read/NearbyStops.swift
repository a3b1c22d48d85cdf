import Foundation
package import GTFS

/// Stops near a point, as both stores find them: a box of latitudes and longitudes (one or two ranges of
/// longitude, across the antimeridian) asked of the store's index, then the distance of each candidate.
package struct NearbyStops {
    package let latitude: Double
    package let longitude: Double
    package let meters: Double
    /// The latitudes of the box.
    package let latitudes: ClosedRange<Double>
    /// The longitudes of the box: one range, or two when it crosses the antimeridian.
    package let longitudes: [ClosedRange<Double>]

    /// The box around a point; `nil` for an invalid point or distance.
    package init?(latitude: Double, longitude: Double, meters: Double) {
        guard (-90 ... 90).contains(latitude), (-180 ... 180).contains(longitude), meters >= 0, meters.isFinite else { return nil }
        (self.latitude, self.longitude, self.meters) = (latitude, longitude, meters)
        let latitudeSpan = meters / GeoDistance.metersPerDegree
        let cosine = cos(latitude * .pi / 180)
        // Near a pole a few meters span every longitude.
        let longitudeSpan = cosine > 1e-6 ? min(180, latitudeSpan / cosine) : 180
        latitudes = (latitude - latitudeSpan) ... (latitude + latitudeSpan)
        longitudes = Self.longitudeRanges(longitude - longitudeSpan, longitude + longitudeSpan)
    }

    /// The longitudes from `west` to `east` as ranges within -180…180: one, or two when the span crosses
    /// the antimeridian (a stop at 179.999° is 100 m from one at -179.999°).
    static func longitudeRanges(_ west: Double, _ east: Double) -> [ClosedRange<Double>] {
        if east - west >= 360 { return [-180 ... 180] }
        if west < -180 { return [-180 ... east, (west + 360) ... 180] }
        if east > 180 { return [west ... 180, -180 ... (east - 360)] }
        return [west ... east]
    }

    /// The candidates within the distance, nearest first (ties by `stop_id`), at most `limit`.
    package func ranked(_ candidates: [Stop], limit: Int?) -> [NearbyStop] {
        var nearby = candidates.compactMap { stop -> NearbyStop? in
            guard let stopLatitude = stop.latitude, let stopLongitude = stop.longitude else { return nil }
            let distance = GeoDistance.meters(latitude, longitude, stopLatitude, stopLongitude)
            return distance <= meters ? NearbyStop(stop: stop, distance: distance) : nil
        }
        nearby.sort { ($0.distance, $0.stop.stopID.description) < ($1.distance, $1.stop.stopID.description) }
        if let limit, nearby.count > limit { nearby.removeLast(nearby.count - max(0, limit)) }
        return nearby
    }
}
