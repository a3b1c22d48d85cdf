/// A row of `routes.txt`: a route, the group of trips riders know as one line.
public struct Route: GTFSRecord, Hashable {
    /// The file the records come from.
    public static let file = GTFSFile.routes

    enum Column: Int {
        case routeID, agencyID, routeShortName, routeLongName, routeDesc, routeType, routeURL, routeColor
        case routeTextColor, routeSortOrder, continuousPickup, continuousDropOff, networkID, cemvSupport
    }

    /// The columns of the reference, in order.
    public static let columns: [ColumnSpec] = [
        .required("route_id"), .optional("agency_id"), .optional("route_short_name"), .optional("route_long_name"),
        .optional("route_desc"), .required("route_type"), .optional("route_url"), .optional("route_color"),
        .optional("route_text_color"), .optional("route_sort_order"), .optional("continuous_pickup"),
        .optional("continuous_drop_off"), .optional("network_id"), .optional("cemv_support"),
    ]

    /// The color a route has when `route_color` is empty or absent: white, `FFFFFF`.
    public static let defaultColor = GTFSColor(rgb: 0xFF_FFFF)
    /// The text color a route has when `route_text_color` is empty or absent: black, `000000`.
    public static let defaultTextColor = GTFSColor(rgb: 0x00_0000)

    /// `route_id`.
    public var routeID: GTFSID
    /// `agency_id`: required when the feed has several agencies (a check across files, not made here).
    public var agencyID: GTFSID?
    /// `route_short_name`, e.g. `M6`; required when `route_long_name` is empty.
    public var routeShortName: String?
    /// `route_long_name`; required when `route_short_name` is empty.
    public var routeLongName: String?
    /// `route_desc`.
    public var routeDescription: String?
    /// `route_type`: basic or Google extended.
    public var routeType: RouteType
    /// `route_url`.
    public var routeURL: String?
    /// `route_color`; empty or absent reads as ``defaultColor`` (`FFFFFF`).
    public var routeColor: GTFSColor
    /// `route_text_color`; empty or absent reads as ``defaultTextColor`` (`000000`).
    public var routeTextColor: GTFSColor
    /// `route_sort_order`: smaller values are shown first.
    public var routeSortOrder: Int?
    /// `continuous_pickup`; empty reads as ``ContinuousStopping/none``.
    public var continuousPickup: ContinuousStopping
    /// `continuous_drop_off`; empty reads as ``ContinuousStopping/none``.
    public var continuousDropOff: ContinuousStopping
    /// `network_id`: the fare network (forbidden when `networks.txt` or `route_networks.txt` exist).
    public var networkID: GTFSID?
    /// `cemv_support`; `nil` when empty (the agency's value then applies).
    public var cemvSupport: CEMVSupport?

    /// Decodes a route and checks that it has a name.
    /// - Throws: ``GTFSError`` for an invalid value or a broken rule.
    public init(row: Row) throws {
        typealias C = Column
        routeID = try row.requiredID(C.routeID.rawValue)
        agencyID = row.id(C.agencyID.rawValue)
        routeShortName = row.text(C.routeShortName.rawValue)
        routeLongName = row.text(C.routeLongName.rawValue)
        routeDescription = row.text(C.routeDesc.rawValue)
        routeType = try row.requiredEnumeration(C.routeType.rawValue)
        routeURL = row.url(C.routeURL.rawValue)
        routeColor = try row.color(C.routeColor.rawValue) ?? Route.defaultColor
        routeTextColor = try row.color(C.routeTextColor.rawValue) ?? Route.defaultTextColor
        routeSortOrder = try row.nonNegativeInt(C.routeSortOrder.rawValue)
        continuousPickup = try row.enumeration(C.continuousPickup.rawValue) ?? ContinuousStopping.none
        continuousDropOff = try row.enumeration(C.continuousDropOff.rawValue) ?? ContinuousStopping.none
        networkID = row.id(C.networkID.rawValue)
        cemvSupport = try row.enumeration(C.cemvSupport.rawValue)

        if routeShortName == nil && routeLongName == nil {
            throw row.ruleError(C.routeShortName.rawValue, "is required when route_long_name is empty")
        }
    }
}
