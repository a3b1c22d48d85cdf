import Foundation

/// The contents of `locations.geojson`: the zones (GeoJSON polygons and multipolygons) where
/// demand-responsive services pick up and drop off riders, referenced by `stop_times.location_id`.
///
/// The JSON text is kept as it is; the initializer checks only the top level, that it is a JSON object
/// whose `type` is `"FeatureCollection"`.
///
/// ```swift
/// let locations = try LocationsGeoJSON(json: #"{"type": "FeatureCollection", "features": []}"#)
/// ```
public struct LocationsGeoJSON: Sendable, Hashable {
    /// The file name used in errors.
    public static let fileName = "locations.geojson"

    /// The file's JSON text, unchanged.
    public let json: String

    /// Wraps the JSON text of `locations.geojson` after checking its top level.
    /// - Parameter json: the whole file as text.
    /// - Throws: ``GTFSError`` with file `locations.geojson` when the text is empty, is not JSON, is not a JSON
    ///   object, or its `type` is missing or not `"FeatureCollection"`.
    public init(json: String) throws {
        let file = Self.fileName
        if json.allSatisfy(\.isWhitespace) { throw GTFSError(.emptyFile, file: file, message: "is empty") }
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: Data(json.utf8), options: [.fragmentsAllowed])
        } catch {
            throw GTFSError(.invalidValue, file: file, message: "is not valid JSON")
        }
        guard let members = object as? [String: Any] else {
            throw GTFSError(.invalidValue, file: file, message: "is not a JSON object")
        }
        guard let type = members["type"] else {
            throw GTFSError(.missingValue, file: file, column: "type", message: "is required")
        }
        guard let name = type as? String, name == "FeatureCollection" else {
            // A value that is not a string is shown as JSON: Foundation describes it differently on each platform.
            let text = (type as? String) ?? Self.jsonText(of: type)
            throw GTFSError(.invalidValue, file: file, column: "type", text: text, message: "is not \"FeatureCollection\"")
        }
        self.json = json
    }

    /// `value` written back as compact JSON, keys sorted.
    private static func jsonText(of value: Any) -> String {
        let data = try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed, .sortedKeys])
        return data.map { String(decoding: $0, as: UTF8.self) } ?? "?"
    }
}
