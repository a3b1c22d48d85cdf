/// The files of the GTFS Schedule reference.
public enum GTFSFile: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case agency, stops, routes, trips
    case stopTimes = "stop_times"
    case calendar
    case calendarDates = "calendar_dates"
    case fareAttributes = "fare_attributes"
    case fareRules = "fare_rules"
    case timeframes
    case riderCategories = "rider_categories"
    case fareMedia = "fare_media"
    case fareProducts = "fare_products"
    case fareLegRules = "fare_leg_rules"
    case fareLegJoinRules = "fare_leg_join_rules"
    case fareTransferRules = "fare_transfer_rules"
    case areas
    case stopAreas = "stop_areas"
    case networks
    case routeNetworks = "route_networks"
    case shapes, frequencies, transfers, pathways, levels
    case locationGroups = "location_groups"
    case locationGroupStops = "location_group_stops"
    case bookingRules = "booking_rules"
    case translations
    case feedInfo = "feed_info"
    case attributions

    /// The file name in a feed, e.g. `stop_times.txt`.
    public var fileName: String { rawValue + ".txt" }

    /// The file name.
    public var description: String { fileName }

    /// The table a file name stands for: `stops.txt`, `stops.txt.gz`, `stops.csv`, `stops`
    /// (case-insensitive, any folder); `nil` for files outside the reference.
    ///
    /// ```swift
    /// GTFSFile(fileName: "feed/stop_times.txt.gz") // .stopTimes
    /// ```
    public init?(fileName: String) {
        var name = Substring(fileName.split(separator: "/").last ?? "")
        for suffix in [".gz", ".txt", ".csv"] where name.lowercased().hasSuffix(suffix) {
            name = name.dropLast(suffix.count)
        }
        guard let file = GTFSFile(rawValue: name.lowercased()) else { return nil }
        self = file
    }

    /// The order in which a feed's files are read: referenced tables before the tables that refer to them.
    public static let loadOrder: [GTFSFile] = [
        .feedInfo, .agency, .levels, .stops, .areas, .stopAreas, .networks, .routes, .routeNetworks,
        .calendar, .calendarDates, .shapes, .trips, .bookingRules, .locationGroups, .locationGroupStops,
        .stopTimes, .frequencies, .transfers, .pathways, .fareAttributes, .fareRules, .timeframes,
        .riderCategories, .fareMedia, .fareProducts, .fareLegRules, .fareLegJoinRules, .fareTransferRules,
        .translations, .attributions,
    ]
}
