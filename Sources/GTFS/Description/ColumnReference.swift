/// A reference between the files of a feed: a column whose non-empty values must appear in a column of
/// another file (or of one of several), as the GTFS reference defines it. Both stores check these after a
/// load and report what is missing as ``IntegrityFinding``s.
public struct ColumnReference: Sendable, Hashable {
    /// A table and column a value may be found in.
    public struct Target: Sendable, Hashable {
        /// The table.
        public let file: GTFSFile
        /// Its column.
        public let column: String
    }

    /// The referring table.
    public let file: GTFSFile
    /// The referring column.
    public let column: String
    /// The tables and columns that may hold the value.
    public let targets: [Target]

    init(_ file: GTFSFile, _ column: String, _ targets: (file: GTFSFile, column: String)...) {
        self.file = file
        self.column = column
        self.targets = targets.map { Target(file: $0.file, column: $0.column) }
    }

    /// Whether the reference concerns one of `files` (as the referring table or a target).
    /// - Parameter files: tables that changed.
    /// - Returns: whether it needs checking again.
    public func involves(_ files: Set<GTFSFile>) -> Bool {
        files.contains(file) || targets.contains { files.contains($0.file) }
    }

    /// `trips.trip_id`, or `calendar.service_id or calendar_dates.service_id`.
    public var targetDescription: String {
        targets.map { "\($0.file.rawValue).\($0.column)" }.joined(separator: " or ")
    }

    /// The references the stores check.
    public static let all: [ColumnReference] = [
        ColumnReference(.stopTimes, "trip_id", (.trips, "trip_id")),
        ColumnReference(.stopTimes, "stop_id", (.stops, "stop_id")),
        ColumnReference(.stopTimes, "location_group_id", (.locationGroups, "location_group_id")),
        ColumnReference(.stopTimes, "pickup_booking_rule_id", (.bookingRules, "booking_rule_id")),
        ColumnReference(.stopTimes, "drop_off_booking_rule_id", (.bookingRules, "booking_rule_id")),
        ColumnReference(.trips, "route_id", (.routes, "route_id")),
        ColumnReference(.trips, "service_id", (.calendar, "service_id"), (.calendarDates, "service_id")),
        ColumnReference(.trips, "shape_id", (.shapes, "shape_id")),
        ColumnReference(.routes, "agency_id", (.agency, "agency_id")),
        ColumnReference(.stops, "parent_station", (.stops, "stop_id")),
        ColumnReference(.stops, "level_id", (.levels, "level_id")),
        ColumnReference(.frequencies, "trip_id", (.trips, "trip_id")),
        ColumnReference(.transfers, "from_stop_id", (.stops, "stop_id")),
        ColumnReference(.transfers, "to_stop_id", (.stops, "stop_id")),
        ColumnReference(.transfers, "from_route_id", (.routes, "route_id")),
        ColumnReference(.transfers, "to_route_id", (.routes, "route_id")),
        ColumnReference(.transfers, "from_trip_id", (.trips, "trip_id")),
        ColumnReference(.transfers, "to_trip_id", (.trips, "trip_id")),
        ColumnReference(.pathways, "from_stop_id", (.stops, "stop_id")),
        ColumnReference(.pathways, "to_stop_id", (.stops, "stop_id")),
        ColumnReference(.fareAttributes, "agency_id", (.agency, "agency_id")),
        ColumnReference(.fareRules, "fare_id", (.fareAttributes, "fare_id")),
        ColumnReference(.fareRules, "route_id", (.routes, "route_id")),
        ColumnReference(.timeframes, "service_id", (.calendar, "service_id"), (.calendarDates, "service_id")),
        ColumnReference(.fareProducts, "rider_category_id", (.riderCategories, "rider_category_id")),
        ColumnReference(.fareProducts, "fare_media_id", (.fareMedia, "fare_media_id")),
        ColumnReference(.fareLegRules, "fare_product_id", (.fareProducts, "fare_product_id")),
        ColumnReference(.fareLegRules, "from_area_id", (.areas, "area_id")),
        ColumnReference(.fareLegRules, "to_area_id", (.areas, "area_id")),
        ColumnReference(.fareLegRules, "network_id", (.networks, "network_id"), (.routes, "network_id")),
        ColumnReference(.fareTransferRules, "fare_product_id", (.fareProducts, "fare_product_id")),
        ColumnReference(.stopAreas, "area_id", (.areas, "area_id")),
        ColumnReference(.stopAreas, "stop_id", (.stops, "stop_id")),
        ColumnReference(.routeNetworks, "network_id", (.networks, "network_id")),
        ColumnReference(.routeNetworks, "route_id", (.routes, "route_id")),
        ColumnReference(.locationGroupStops, "location_group_id", (.locationGroups, "location_group_id")),
        ColumnReference(.locationGroupStops, "stop_id", (.stops, "stop_id")),
        ColumnReference(.attributions, "agency_id", (.agency, "agency_id")),
        ColumnReference(.attributions, "route_id", (.routes, "route_id")),
        ColumnReference(.attributions, "trip_id", (.trips, "trip_id")),
    ]
}
