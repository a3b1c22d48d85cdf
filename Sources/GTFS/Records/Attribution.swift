/// A row of `attributions.txt`: an organisation credited for the data (producer, operator or authority).
public struct Attribution: GTFSRecord, Hashable {
    /// The file the records come from.
    public static let file = GTFSFile.attributions

    enum Column: Int {
        case attributionID, agencyID, routeID, tripID, organizationName, isProducer, isOperator, isAuthority
        case attributionURL, attributionEmail, attributionPhone
    }

    /// The columns of the reference, in order.
    public static let columns: [ColumnSpec] = [
        .optional("attribution_id"), .optional("agency_id"), .optional("route_id"), .optional("trip_id"),
        .required("organization_name"), .optional("is_producer"), .optional("is_operator"), .optional("is_authority"),
        .optional("attribution_url"), .optional("attribution_email"), .optional("attribution_phone"),
    ]

    /// `attribution_id`.
    public var attributionID: GTFSID?
    /// `agency_id`: the agency the attribution is for; at most one of agency, route and trip is given.
    public var agencyID: GTFSID?
    /// `route_id`: the route the attribution is for.
    public var routeID: GTFSID?
    /// `trip_id`: the trip the attribution is for.
    public var tripID: GTFSID?
    /// `organization_name`.
    public var organizationName: String
    /// `is_producer`: `1` (true) when the organisation produced the data; empty reads as `0` (false).
    public var isProducer: Bool
    /// `is_operator`: `1` (true) when the organisation operates the service; empty reads as `0` (false).
    public var isOperator: Bool
    /// `is_authority`: `1` (true) when the organisation is the transit authority; empty reads as `0` (false).
    public var isAuthority: Bool
    /// `attribution_url`.
    public var attributionURL: String?
    /// `attribution_email`.
    public var attributionEmail: String?
    /// `attribution_phone`.
    public var attributionPhone: String?

    /// Decodes an attribution and checks that it targets at most one agency, route or trip.
    ///
    /// An organisation with none of the three roles is kept with a warning.
    /// - Throws: ``GTFSError`` for an invalid value or a broken rule.
    public init(row: Row) throws {
        typealias C = Column
        attributionID = row.id(C.attributionID.rawValue)
        agencyID = row.id(C.agencyID.rawValue)
        routeID = row.id(C.routeID.rawValue)
        tripID = row.id(C.tripID.rawValue)
        organizationName = try row.requiredText(C.organizationName.rawValue)
        isProducer = try row.zeroOrOne(C.isProducer.rawValue) ?? false
        isOperator = try row.zeroOrOne(C.isOperator.rawValue) ?? false
        isAuthority = try row.zeroOrOne(C.isAuthority.rawValue) ?? false
        attributionURL = row.url(C.attributionURL.rawValue)
        attributionEmail = row.email(C.attributionEmail.rawValue)
        attributionPhone = row.phoneNumber(C.attributionPhone.rawValue)

        if agencyID != nil && (routeID != nil || tripID != nil) {
            let other = routeID != nil ? C.routeID : C.tripID
            throw row.ruleError(other.rawValue, "is forbidden when agency_id is given (at most one of agency_id, route_id, trip_id)")
        }
        if routeID != nil && tripID != nil {
            throw row.ruleError(C.tripID.rawValue, "is forbidden when route_id is given (at most one of agency_id, route_id, trip_id)")
        }
        if !isProducer && !isOperator && !isAuthority {
            row.warn(C.isProducer.rawValue, "should be 1 when is_operator and is_authority are not (an attribution needs a role)")
        }
    }
}
