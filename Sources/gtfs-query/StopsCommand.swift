import ArgumentParser
import Foundation
import GTFS
import GTFSImport
import ToolSupport

/// `gtfs-query stops`: stops near a point or by name.
struct StopsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stops",
        abstract: "List the stops near a point (nearest first) or whose name matches (stations first).",
        discussion: """
            Examples: gtfs-query stops --near 52.5219,13.4132 --within 300
                      gtfs-query stops --name "alexanderpl"   (diacritics and case do not matter)
            """
    )

    @Option(name: .long, help: ArgumentHelp("A point: latitude and longitude in degrees.", valueName: "LAT,LON"))
    var near: String?

    @Option(name: .long, help: ArgumentHelp("The largest distance from --near, in meters.", valueName: "METERS"))
    var within = 500.0

    @Option(name: .long, help: ArgumentHelp("Words the names must have (each as a word's beginning).", valueName: "TEXT"))
    var name: String?

    @Option(name: .long, help: "The most stops listed.")
    var limit = 20

    @OptionGroup var store: StoreOptions

    func validate() throws {
        guard (near == nil) != (name == nil) else { throw ValidationError("give --near LAT,LON or --name TEXT") }
        if near != nil, point == nil { throw ValidationError("--near must be LAT,LON in degrees, e.g. 52.5219,13.4132") }
        guard within >= 0, within <= 100_000 else { throw ValidationError("--within must be 0 to 100000 meters, got \(within)") }
        guard limit >= 1 else { throw ValidationError("--limit must be at least 1, got \(limit)") }
    }

    /// `--near` as numbers, when valid.
    private var point: (latitude: Double, longitude: Double)? { Self.point(near) }

    /// `LAT,LON` as numbers, when valid.
    static func point(_ text: String?) -> (latitude: Double, longitude: Double)? {
        guard let parts = text?.split(separator: ","), parts.count == 2,
            let latitude = Double(parts[0].trimmingCharacters(in: .whitespaces)),
            let longitude = Double(parts[1].trimmingCharacters(in: .whitespaces)),
            (-90 ... 90).contains(latitude), (-180 ... 180).contains(longitude)
        else { return nil }
        return (latitude, longitude)
    }

    func run() throws {
        let database = try store.open()
        let found: [(stop: Stop, distance: Double?)]
        do {
            if let point {
                found = try database.stops(near: point.latitude, point.longitude, within: within, feed: store.feed, limit: limit)
                    .map { ($0.stop, $0.distance) }
            } else {
                found = try database.stops(named: name ?? "", feed: store.feed, limit: limit).map { ($0, nil) }
            }
        } catch StoreError.tooManyWords(let count, let most) {
            throw ValidationError("--name has \(Format.count(count)) words; at most \(most) are looked for")
        } catch {
            throw ToolFailure("\(error)")
        }
        if store.json {
            struct Row: Encodable {
                let stopID: String
                let name: String?
                let latitude: Double?
                let longitude: Double?
                let locationType: Int
                let parentStation: String?
                let platform: String?
                let distance: Double?
            }
            let rows = found.map {
                Row(
                    stopID: $0.stop.stopID.description, name: $0.stop.stopName, latitude: $0.stop.latitude, longitude: $0.stop.longitude,
                    locationType: $0.stop.locationType.code, parentStation: $0.stop.parentStation?.description,
                    platform: $0.stop.platformCode, distance: $0.distance.map { ($0 * 10).rounded() / 10 })
            }
            print(try JSONText.pretty(rows))
            if let more = try moreNote(found: found.count, database) { StandardError.line(more) }
            return
        }
        guard !found.isEmpty else {
            print("no stops found")
            return
        }
        let kinds: [LocationType: String] = [.stop: "stop", .station: "station", .entrance: "entrance", .genericNode: "node", .boardingArea: "boarding area"]
        let rows = found.map { entry -> [String] in
            [
                GTFSError.displayable(entry.stop.stopID.description), GTFSError.displayable(entry.stop.stopName ?? ""),
                kinds[entry.stop.locationType] ?? "type \(entry.stop.locationType.code)", GTFSError.displayable(entry.stop.platformCode ?? ""),
            ] + (entry.distance.map { ["\(Int($0.rounded())) m"] } ?? [])
        }
        let header = ["stop_id", "name", "type", "platform"] + (point != nil ? ["distance"] : [])
        print(Format.table(header: header, rows: rows, leftAligned: [0, 1, 2, 3]), terminator: "")
        if let more = try moreNote(found: found.count, database) { print("\n" + more) }
    }

    /// What a name search cut at its limit says: how many it found in all (on standard error for JSON).
    private func moreNote(found: Int, _ database: any FeedStore) throws -> String? {
        guard point == nil, found == limit, let name else { return nil }
        let all = try database.countStops(named: name, feed: store.feed)
        guard all > found else { return nil }
        return "the first \(Format.count(found)) of \(Format.count(all)) stops (--limit N shows more)"
    }
}
