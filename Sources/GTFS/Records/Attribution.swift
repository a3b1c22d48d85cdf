/// A row of `attributions.txt`: an organisation credited for the data (producer, operator or authority).
public struct Attribution: GTFSRecord, Hashable {
    /// The file the records come from.
    public static let file = GTFSFile.attributions

    /// The fields of `attributions.txt`, in the order of the reference: name, type and presence of each.
    public enum Field: Int, GTFSField {
        /// A column of `attributions.txt`, named like the case in snake case (``spec`` gives its name,
        /// type and presence).
        case attributionID, agencyID, routeID, tripID, organizationName, isProducer, isOperator, isAuthority
        /// A column of `attributions.txt`, named like the case in snake case (``spec`` gives its name,
        /// type and presence).
        case attributionURL, attributionEmail, attributionPhone

        /// The field as the reference describes it.
        public var spec: FieldSpec {
            switch self {
            case .attributionID: FieldSpec("attribution_id", .id)
            case .agencyID: FieldSpec("agency_id", .id)
            case .routeID: FieldSpec("route_id", .id)
            case .tripID: FieldSpec("trip_id", .id)
            case .organizationName: FieldSpec("organization_name", .text, .required)
            case .isProducer: FieldSpec("is_producer", .boolean, .defaulted)
            case .isOperator: FieldSpec("is_operator", .boolean, .defaulted)
            case .isAuthority: FieldSpec("is_authority", .boolean, .defaulted)
            case .attributionURL: FieldSpec("attribution_url", .text)
            case .attributionEmail: FieldSpec("attribution_email", .text)
            case .attributionPhone: FieldSpec("attribution_phone", .text)
            }
        }

        /// No key: rows are compared whole.
        public static let key: [Field] = []
    }


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
    /// - Parameter row: one row of `attributions.txt`.
    /// - Throws: ``GTFSError`` for an invalid value or a broken rule.
    public init(row: CSVRow<Field>) throws {
        attributionID = row.id(.attributionID)
        agencyID = row.id(.agencyID)
        routeID = row.id(.routeID)
        tripID = row.id(.tripID)
        organizationName = try row.requiredText(.organizationName)
        isProducer = try row.zeroOrOne(.isProducer) ?? false
        isOperator = try row.zeroOrOne(.isOperator) ?? false
        isAuthority = try row.zeroOrOne(.isAuthority) ?? false
        attributionURL = row.url(.attributionURL)
        attributionEmail = row.email(.attributionEmail)
        attributionPhone = row.phoneNumber(.attributionPhone)

        if agencyID != nil && (routeID != nil || tripID != nil) {
            let other: Field = routeID != nil ? .routeID : .tripID
            throw row.ruleError(other, "is forbidden when agency_id is given (at most one of agency_id, route_id, trip_id)")
        }
        if routeID != nil && tripID != nil {
            throw row.ruleError(.tripID, "is forbidden when route_id is given (at most one of agency_id, route_id, trip_id)")
        }
        if !isProducer && !isOperator && !isAuthority {
            row.warn(.isProducer, "should be 1 when is_operator and is_authority are not (an attribution needs a role)")
        }
    }
}

extension Attribution {
    /// Writes one value per field, in ``Field`` order, in their primitive form (see ``FieldSink``).
    /// - Parameter sink: receives the values.
    public func write<Sink: FieldSink>(to sink: inout Sink) {
        sink.write(attributionID)
        sink.write(agencyID)
        sink.write(routeID)
        sink.write(tripID)
        sink.write(organizationName)
        sink.write(isProducer)
        sink.write(isOperator)
        sink.write(isAuthority)
        sink.write(attributionURL)
        sink.write(attributionEmail)
        sink.write(attributionPhone)
    }
}
