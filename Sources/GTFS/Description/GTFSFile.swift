/// The files of the GTFS Schedule reference.
public enum GTFSFile: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// One case per file, named like it: `agency.txt` (the agencies), `stops.txt` (stops, stations and
    /// their parts), `routes.txt` (the routes) and `trips.txt` (the trips of each route).
    case agency, stops, routes, trips
    /// `stop_times.txt`: when each trip arrives at and leaves each of its stops.
    case stopTimes = "stop_times"
    /// `calendar.txt`: the weekdays a service runs on between two dates.
    case calendar
    /// `calendar_dates.txt`: dates a service is added or removed.
    case calendarDates = "calendar_dates"
    /// `fare_attributes.txt`: fares (GTFS-Fares v1).
    case fareAttributes = "fare_attributes"
    /// `fare_rules.txt`: which fare applies to which route or zones (GTFS-Fares v1).
    case fareRules = "fare_rules"
    /// `timeframes.txt`: times of day and service days for fare leg rules.
    case timeframes
    /// `rider_categories.txt`: the categories of riders a fare product is for.
    case riderCategories = "rider_categories"
    /// `fare_media.txt`: the media fares are paid with (cards, tickets, apps).
    case fareMedia = "fare_media"
    /// `fare_products.txt`: what a rider can buy, at what price.
    case fareProducts = "fare_products"
    /// `fare_leg_rules.txt`: the fare of a single leg.
    case fareLegRules = "fare_leg_rules"
    /// `fare_leg_join_rules.txt`: legs that count as one for fares.
    case fareLegJoinRules = "fare_leg_join_rules"
    /// `fare_transfer_rules.txt`: the fare of a transfer between legs.
    case fareTransferRules = "fare_transfer_rules"
    /// `areas.txt`: groups of stops that fare rules name.
    case areas
    /// `stop_areas.txt`: which stops belong to which area.
    case stopAreas = "stop_areas"
    /// `networks.txt`: networks of routes that fare rules name.
    case networks
    /// `route_networks.txt`: which routes belong to which network.
    case routeNetworks = "route_networks"
    /// One case per file, named like it: `shapes.txt` (the paths vehicles travel), `frequencies.txt`
    /// (trips that run at a headway), `transfers.txt` (rules for changing between routes, trips or stops),
    /// `pathways.txt` (walkways inside stations) and `levels.txt` (the floors of stations).
    case shapes, frequencies, transfers, pathways, levels
    /// `location_groups.txt`: groups of stops where demand-responsive services call (GTFS-Flex).
    case locationGroups = "location_groups"
    /// `location_group_stops.txt`: which stops belong to which location group (GTFS-Flex).
    case locationGroupStops = "location_group_stops"
    /// `booking_rules.txt`: how and when riders book a demand-responsive service (GTFS-Flex).
    case bookingRules = "booking_rules"
    /// `translations.txt`: texts of the feed in other languages.
    case translations
    /// `feed_info.txt`: who publishes the feed, its language and validity.
    case feedInfo = "feed_info"
    /// `attributions.txt`: organisations credited for the data.
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
    /// - Parameter fileName: a file name or path; a `.gz`, then a `.txt` or `.csv` ending is ignored.
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
