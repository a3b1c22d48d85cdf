import Foundation

/// Distances on the Earth, as a sphere of its mean radius: within 0.5% of the ellipsoid's, plenty for
/// "stops within 500 m".
package enum GeoDistance {
    /// The Earth's mean radius, in meters.
    package static let earthRadius = 6_371_008.8
    /// Meters per degree of latitude.
    package static let metersPerDegree = earthRadius * .pi / 180

    /// The great-circle distance between two points (degrees), in meters (haversine).
    package static func meters(_ latitude1: Double, _ longitude1: Double, _ latitude2: Double, _ longitude2: Double) -> Double {
        let radians = Double.pi / 180
        let dLatitude = (latitude2 - latitude1) * radians
        let dLongitude = (longitude2 - longitude1) * radians
        let a = sin(dLatitude / 2) * sin(dLatitude / 2)
            + cos(latitude1 * radians) * cos(latitude2 * radians) * sin(dLongitude / 2) * sin(dLongitude / 2)
        return 2 * earthRadius * asin(min(1, sqrt(a)))
    }
}
