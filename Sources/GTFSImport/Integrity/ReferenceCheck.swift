import GRDB
import GTFS

/// One reference between tables that the integrity report checks: a column whose non-empty values must
/// appear in a column of another table (or of one of several tables).
struct ReferenceCheck: Sendable {
    /// The referring table and column.
    let file: GTFSFile
    let column: String
    /// The tables and columns that may hold the value.
    let targets: [(file: GTFSFile, column: String)]

    init(_ file: GTFSFile, _ column: String, _ targets: (file: GTFSFile, column: String)...) {
        self.file = file
        self.column = column
        self.targets = targets
    }

    /// The references of the GTFS reference that the store checks.
    static let all: [ReferenceCheck] = [
        ReferenceCheck(.stopTimes, "trip_id", (.trips, "trip_id")),
        ReferenceCheck(.stopTimes, "stop_id", (.stops, "stop_id")),
        ReferenceCheck(.stopTimes, "location_group_id", (.locationGroups, "location_group_id")),
        ReferenceCheck(.stopTimes, "pickup_booking_rule_id", (.bookingRules, "booking_rule_id")),
        ReferenceCheck(.stopTimes, "drop_off_booking_rule_id", (.bookingRules, "booking_rule_id")),
        ReferenceCheck(.trips, "route_id", (.routes, "route_id")),
        ReferenceCheck(.trips, "service_id", (.calendar, "service_id"), (.calendarDates, "service_id")),
        ReferenceCheck(.trips, "shape_id", (.shapes, "shape_id")),
        ReferenceCheck(.routes, "agency_id", (.agency, "agency_id")),
        ReferenceCheck(.stops, "parent_station", (.stops, "stop_id")),
        ReferenceCheck(.stops, "level_id", (.levels, "level_id")),
        ReferenceCheck(.frequencies, "trip_id", (.trips, "trip_id")),
        ReferenceCheck(.transfers, "from_stop_id", (.stops, "stop_id")),
        ReferenceCheck(.transfers, "to_stop_id", (.stops, "stop_id")),
        ReferenceCheck(.transfers, "from_route_id", (.routes, "route_id")),
        ReferenceCheck(.transfers, "to_route_id", (.routes, "route_id")),
        ReferenceCheck(.transfers, "from_trip_id", (.trips, "trip_id")),
        ReferenceCheck(.transfers, "to_trip_id", (.trips, "trip_id")),
        ReferenceCheck(.pathways, "from_stop_id", (.stops, "stop_id")),
        ReferenceCheck(.pathways, "to_stop_id", (.stops, "stop_id")),
        ReferenceCheck(.fareAttributes, "agency_id", (.agency, "agency_id")),
        ReferenceCheck(.fareRules, "fare_id", (.fareAttributes, "fare_id")),
        ReferenceCheck(.fareRules, "route_id", (.routes, "route_id")),
        ReferenceCheck(.timeframes, "service_id", (.calendar, "service_id"), (.calendarDates, "service_id")),
        ReferenceCheck(.fareProducts, "rider_category_id", (.riderCategories, "rider_category_id")),
        ReferenceCheck(.fareProducts, "fare_media_id", (.fareMedia, "fare_media_id")),
        ReferenceCheck(.fareLegRules, "fare_product_id", (.fareProducts, "fare_product_id")),
        ReferenceCheck(.fareLegRules, "from_area_id", (.areas, "area_id")),
        ReferenceCheck(.fareLegRules, "to_area_id", (.areas, "area_id")),
        ReferenceCheck(.fareLegRules, "network_id", (.networks, "network_id"), (.routes, "network_id")),
        ReferenceCheck(.fareTransferRules, "fare_product_id", (.fareProducts, "fare_product_id")),
        ReferenceCheck(.stopAreas, "area_id", (.areas, "area_id")),
        ReferenceCheck(.stopAreas, "stop_id", (.stops, "stop_id")),
        ReferenceCheck(.routeNetworks, "network_id", (.networks, "network_id")),
        ReferenceCheck(.routeNetworks, "route_id", (.routes, "route_id")),
        ReferenceCheck(.locationGroupStops, "location_group_id", (.locationGroups, "location_group_id")),
        ReferenceCheck(.locationGroupStops, "stop_id", (.stops, "stop_id")),
        ReferenceCheck(.attributions, "agency_id", (.agency, "agency_id")),
        ReferenceCheck(.attributions, "route_id", (.routes, "route_id")),
        ReferenceCheck(.attributions, "trip_id", (.trips, "trip_id")),
    ]

    /// Whether the check concerns one of `files` (as the referring table or a target).
    func involves(_ files: Set<GTFSFile>) -> Bool {
        files.contains(file) || targets.contains { files.contains($0.file) }
    }

    /// The condition that selects the dangling rows of `c`.
    private var danglingCondition: String {
        let missing = targets.map { target in
            "NOT EXISTS (SELECT 1 FROM \(GTFSSchema.tableName(for: target.file)) t WHERE t.\(target.column) = c.\(column))"
        }
        return "c.\(column) IS NOT NULL AND " + missing.joined(separator: " AND ")
    }

    /// `trips.trip_id`, or `calendar.service_id or calendar_dates.service_id`.
    var targetDescription: String {
        targets.map { "\(GTFSSchema.tableName(for: $0.file)).\($0.column)" }.joined(separator: " or ")
    }

    /// Runs the check.
    ///
    /// - Parameter db: a connection.
    /// - Returns: the finding, or `nil` when every reference resolves.
    /// - Throws: `DatabaseError` (an interrupt when the import is cancelled).
    func run(_ db: Database) throws -> IntegrityFinding? {
        let table = GTFSSchema.tableName(for: file)
        let counts = try Row.fetchOne(
            db, sql: "SELECT count(*), count(DISTINCT c.\(column)) FROM \(table) c WHERE \(danglingCondition)")
        let rowCount: Int = counts?[0] ?? 0
        guard rowCount > 0 else { return nil }
        let examples = try String.fetchAll(
            db, sql: "SELECT DISTINCT c.\(column) FROM \(table) c WHERE \(danglingCondition) ORDER BY 1 LIMIT 5")
        return IntegrityFinding(
            file: file, column: column, target: targetDescription, rowCount: rowCount, valueCount: counts?[1] ?? rowCount,
            examples: examples)
    }
}
