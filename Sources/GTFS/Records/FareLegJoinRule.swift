/// A row of `fare_leg_join_rules.txt`: when two consecutive legs count as one leg for fare leg rules.
public struct FareLegJoinRule: GTFSRecord, Hashable {
    /// The file the records come from.
    public static let file = GTFSFile.fareLegJoinRules

    enum Column: Int {
        case fromNetworkID, toNetworkID, fromStopID, toStopID
    }

    /// The columns of the reference, in order.
    public static let columns: [ColumnSpec] = [
        .required("from_network_id"), .required("to_network_id"), .optional("from_stop_id"), .optional("to_stop_id"),
    ]

    /// `from_network_id`: the network of the earlier leg.
    public var fromNetworkID: GTFSID
    /// `to_network_id`: the network of the later leg.
    public var toNetworkID: GTFSID
    /// `from_stop_id`: the stop or station where the earlier leg ends; given together with ``toStopID``.
    public var fromStopID: GTFSID?
    /// `to_stop_id`: the stop or station where the later leg starts; given together with ``fromStopID``.
    public var toStopID: GTFSID?

    /// Decodes a fare leg join rule and checks that the stop ids are given together.
    /// - Throws: ``GTFSError`` for a missing value or a broken rule.
    public init(row: Row) throws {
        typealias C = Column
        fromNetworkID = try row.requiredID(C.fromNetworkID.rawValue)
        toNetworkID = try row.requiredID(C.toNetworkID.rawValue)
        fromStopID = row.id(C.fromStopID.rawValue)
        toStopID = row.id(C.toStopID.rawValue)

        if toStopID != nil && fromStopID == nil { throw row.ruleError(C.fromStopID.rawValue, "is required when to_stop_id is given") }
        if fromStopID != nil && toStopID == nil { throw row.ruleError(C.toStopID.rawValue, "is required when from_stop_id is given") }
    }
}
