/// A row of `fare_leg_join_rules.txt`: when two consecutive legs count as one leg for fare leg rules.
public struct FareLegJoinRule: GTFSRecord, Hashable {
    /// The file the records come from.
    public static let file = GTFSFile.fareLegJoinRules

    /// The fields of `fare_leg_join_rules.txt`, in the order of the reference: name, type and presence of each.
    public enum Field: Int, GTFSField {
        /// A column of `fare_leg_join_rules.txt`, named like the case in snake case (``spec`` gives its name,
        /// type and presence).
        case fromNetworkID, toNetworkID, fromStopID, toStopID

        /// The field as the reference describes it.
        public var spec: FieldSpec {
            switch self {
            case .fromNetworkID: FieldSpec("from_network_id", .id, .required)
            case .toNetworkID: FieldSpec("to_network_id", .id, .required)
            case .fromStopID: FieldSpec("from_stop_id", .id, .conditionallyRequired)
            case .toStopID: FieldSpec("to_stop_id", .id, .conditionallyRequired)
            }
        }

        /// The key: `from_network_id`, `to_network_id`, `from_stop_id`, `to_stop_id`.
        public static let key: [Field] = [.fromNetworkID, .toNetworkID, .fromStopID, .toStopID]
    }


    /// `from_network_id`: the network of the earlier leg.
    public var fromNetworkID: GTFSID
    /// `to_network_id`: the network of the later leg.
    public var toNetworkID: GTFSID
    /// `from_stop_id`: the stop or station where the earlier leg ends; given together with ``toStopID``.
    public var fromStopID: GTFSID?
    /// `to_stop_id`: the stop or station where the later leg starts; given together with ``fromStopID``.
    public var toStopID: GTFSID?

    /// Decodes a fare leg join rule and checks that the stop ids are given together.
    /// - Parameter row: one row of `fare_leg_join_rules.txt`.
    /// - Throws: ``GTFSError`` for a missing value or a broken rule.
    public init(row: CSVRow<Field>) throws {
        fromNetworkID = try row.requiredID(.fromNetworkID)
        toNetworkID = try row.requiredID(.toNetworkID)
        fromStopID = row.id(.fromStopID)
        toStopID = row.id(.toStopID)

        if toStopID != nil && fromStopID == nil { throw row.ruleError(.fromStopID, "is required when to_stop_id is given") }
        if fromStopID != nil && toStopID == nil { throw row.ruleError(.toStopID, "is required when from_stop_id is given") }
    }
}

extension FareLegJoinRule {
    /// Writes one value per field, in ``Field`` order, in their primitive form (see ``FieldSink``).
    /// - Parameter sink: receives the values.
    public func write<Sink: FieldSink>(to sink: inout Sink) {
        sink.write(fromNetworkID)
        sink.write(toNetworkID)
        sink.write(fromStopID)
        sink.write(toStopID)
    }
}
