/// A row of `fare_transfer_rules.txt`: the cost of transferring from one leg group to another. Rules are
/// directional: a rule from X to Y does not apply from Y to X.
public struct FareTransferRule: GTFSRecord, Hashable {
    /// The file the records come from.
    public static let file = GTFSFile.fareTransferRules

    /// The fields of `fare_transfer_rules.txt`, in the order of the reference: name, type and presence of each.
    public enum Field: Int, GTFSField {
        /// A column of `fare_transfer_rules.txt`, named like the case in snake case (``spec`` gives its name,
        /// type and presence).
        case fromLegGroupID, toLegGroupID, transferCount, durationLimit, durationLimitType, fareTransferType
        /// A column of `fare_transfer_rules.txt`, named like the case in snake case (``spec`` gives its name,
        /// type and presence).
        case fareProductID

        /// The field as the reference describes it.
        public var spec: FieldSpec {
            switch self {
            case .fromLegGroupID: FieldSpec("from_leg_group_id", .id)
            case .toLegGroupID: FieldSpec("to_leg_group_id", .id)
            case .transferCount: FieldSpec("transfer_count", .integer, .conditionallyRequired)
            case .durationLimit: FieldSpec("duration_limit", .integer)
            case .durationLimitType: FieldSpec("duration_limit_type", .enumeration, .conditionallyRequired)
            case .fareTransferType: FieldSpec("fare_transfer_type", .enumeration, .required)
            case .fareProductID: FieldSpec("fare_product_id", .id)
            }
        }

        /// The key: `from_leg_group_id`, `to_leg_group_id`, `fare_product_id`, `transfer_count`, `duration_limit`.
        public static let key: [Field] = [.fromLegGroupID, .toLegGroupID, .fareProductID, .transferCount, .durationLimit]
    }


    /// `from_leg_group_id`: the leg group before the transfer; `nil` when empty, meaning every leg group
    /// not listed in other rows.
    public var fromLegGroupID: GTFSID?
    /// `to_leg_group_id`: the leg group after the transfer; `nil` when empty, meaning every leg group not
    /// listed in other rows.
    public var toLegGroupID: GTFSID?
    /// `transfer_count`: `-1` for no limit, or the number of transfers (≥ 1) the rule covers. Required when
    /// both leg groups are given and equal, forbidden otherwise.
    public var transferCount: Int?
    /// `duration_limit`: the time allowed for the transfer, in seconds; `nil` when empty, meaning no limit.
    public var durationLimit: Int?
    /// `duration_limit_type`: how ``durationLimit`` is measured; given exactly when it is.
    public var durationLimitType: DurationLimitType?
    /// `fare_transfer_type`: how the cost of the transfer is computed.
    public var fareTransferType: FareTransferType
    /// `fare_product_id`: the fare product for the transfer; `nil` when empty, meaning it costs nothing.
    public var fareProductID: GTFSID?

    /// Decodes a fare transfer rule and checks `transfer_count` and `duration_limit_type`.
    /// - Parameter row: one row of `fare_transfer_rules.txt`.
    /// - Throws: ``GTFSError`` for an invalid value or a broken rule.
    public init(row: CSVRow<Field>) throws {
        fromLegGroupID = row.id(.fromLegGroupID)
        toLegGroupID = row.id(.toLegGroupID)
        transferCount = try row.int(.transferCount)
        durationLimit = try row.positiveInt(.durationLimit)
        durationLimitType = try row.enumeration(.durationLimitType)
        fareTransferType = try row.requiredEnumeration(.fareTransferType)
        fareProductID = row.id(.fareProductID)

        if let transferCount, transferCount == 0 || transferCount < -1 {
            throw row.error(.transferCount, "is not -1 (no limit) or a positive integer")
        }
        if let fromLegGroupID, let toLegGroupID, fromLegGroupID == toLegGroupID {
            if transferCount == nil {
                throw row.ruleError(.transferCount, "is required when from_leg_group_id equals to_leg_group_id")
            }
        } else if transferCount != nil {
            throw row.ruleError(.transferCount, "is forbidden unless from_leg_group_id equals to_leg_group_id")
        }
        if durationLimit != nil && durationLimitType == nil {
            throw row.ruleError(.durationLimitType, "is required when duration_limit is given")
        }
        if durationLimit == nil && durationLimitType != nil {
            throw row.ruleError(.durationLimitType, "is forbidden when duration_limit is empty")
        }
    }
}

extension FareTransferRule {
    /// Writes one value per field, in ``Field`` order, in their primitive form (see ``FieldSink``).
    /// - Parameter sink: receives the values.
    public func write<Sink: FieldSink>(to sink: inout Sink) {
        sink.write(fromLegGroupID)
        sink.write(toLegGroupID)
        sink.write(transferCount)
        sink.write(durationLimit)
        sink.write(durationLimitType)
        sink.write(fareTransferType)
        sink.write(fareProductID)
    }
}
