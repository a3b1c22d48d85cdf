/// A row of `routes.txt`: a route, the group of trips riders know as one line.
public struct Route: GTFSRecord, Hashable {
    /// The file the records come from.
    public static let file = GTFSFile.routes

    /// The fields of `routes.txt`, in the order of the reference: name, type and presence of each.
    public enum Field: Int, GTFSField {
        /// A column of `routes.txt`, named like the case in snake case (``spec`` gives its name,
        /// type and presence).
        case routeID, agencyID, routeShortName, routeLongName, routeDesc, routeType, routeURL, routeColor
        /// A column of `routes.txt`, named like the case in snake case (``spec`` gives its name,
        /// type and presence).
        case routeTextColor, routeSortOrder, continuousPickup, continuousDropOff, networkID, cemvSupport

        /// The field as the reference describes it.
        public var spec: FieldSpec {
            switch self {
            case .routeID: FieldSpec("route_id", .id, .required)
            case .agencyID: FieldSpec("agency_id", .id)
            case .routeShortName: FieldSpec("route_short_name", .text, .conditionallyRequired)
            case .routeLongName: FieldSpec("route_long_name", .text)
            case .routeDesc: FieldSpec("route_desc", .text)
            case .routeType: FieldSpec("route_type", .enumeration, .required)
            case .routeURL: FieldSpec("route_url", .text)
            case .routeColor: FieldSpec("route_color", .color, .defaulted)
            case .routeTextColor: FieldSpec("route_text_color", .color, .defaulted)
            case .routeSortOrder: FieldSpec("route_sort_order", .integer)
            case .continuousPickup: FieldSpec("continuous_pickup", .enumeration, .defaulted)
            case .continuousDropOff: FieldSpec("continuous_drop_off", .enumeration, .defaulted)
            case .networkID: FieldSpec("network_id", .id)
            case .cemvSupport: FieldSpec("cemv_support", .enumeration)
            }
        }

        /// The key: `route_id`.
        public static let key: [Field] = [.routeID]
    }


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
    /// `continuous_pickup`; empty reads as ``ContinuousStopping/notContinuous``.
    public var continuousPickup: ContinuousStopping
    /// `continuous_drop_off`; empty reads as ``ContinuousStopping/notContinuous``.
    public var continuousDropOff: ContinuousStopping
    /// `network_id`: the fare network (forbidden when `networks.txt` or `route_networks.txt` exist).
    public var networkID: GTFSID?
    /// `cemv_support`; `nil` when empty (the agency's value then applies).
    public var cemvSupport: CEMVSupport?

    /// Decodes a route and checks that it has a name.
    /// - Parameter row: one row of `routes.txt`.
    /// - Throws: ``GTFSError`` for an invalid value or a broken rule.
    public init(row: CSVRow<Field>) throws {
        routeID = try row.requiredID(.routeID)
        agencyID = row.id(.agencyID)
        routeShortName = row.text(.routeShortName)
        routeLongName = row.text(.routeLongName)
        routeDescription = row.text(.routeDesc)
        routeType = try row.requiredEnumeration(.routeType)
        routeURL = row.url(.routeURL)
        routeColor = try row.color(.routeColor) ?? Route.defaultColor
        routeTextColor = try row.color(.routeTextColor) ?? Route.defaultTextColor
        routeSortOrder = try row.nonNegativeInt(.routeSortOrder)
        continuousPickup = try row.enumeration(.continuousPickup) ?? .notContinuous
        continuousDropOff = try row.enumeration(.continuousDropOff) ?? .notContinuous
        networkID = row.id(.networkID)
        cemvSupport = try row.enumeration(.cemvSupport)

        if routeShortName == nil && routeLongName == nil {
            throw row.ruleError(.routeShortName, "is required when route_long_name is empty")
        }
    }
}

extension Route {
    /// Writes one value per field, in ``Field`` order, in their primitive form (see ``FieldSink``).
    /// - Parameter sink: receives the values.
    public func write<Sink: FieldSink>(to sink: inout Sink) {
        sink.write(routeID)
        sink.write(agencyID)
        sink.write(routeShortName)
        sink.write(routeLongName)
        sink.write(routeDescription)
        sink.write(routeType)
        sink.write(routeURL)
        sink.write(routeColor)
        sink.write(routeTextColor)
        sink.write(routeSortOrder)
        sink.write(continuousPickup)
        sink.write(continuousDropOff)
        sink.write(networkID)
        sink.write(cemvSupport)
    }
}
