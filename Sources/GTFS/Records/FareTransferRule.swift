/// A row of `fare_transfer_rules.txt`: the cost of transferring from one leg group to another. Rules are
/// directional: a rule from X to Y does not apply from Y to X.
public struct FareTransferRule: GTFSRecord, Hashable {
    /// The file the records come from.
    public static let file = GTFSFile.fareTransferRules

    enum Column: Int {
        case fromLegGroupID, toLegGroupID, transferCount, durationLimit, durationLimitType, fareTransferType
        case fareProductID
    }

    /// The columns of the reference, in order.
    public static let columns: [ColumnSpec] = [
        .optional("from_leg_group_id"), .optional("to_leg_group_id"), .optional("transfer_count"),
        .optional("duration_limit"), .optional("duration_limit_type"), .required("fare_transfer_type"),
        .optional("fare_product_id"),
    ]

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
    /// - Throws: ``GTFSError`` for an invalid value or a broken rule.
    public init(row: Row) throws {
        typealias C = Column
        fromLegGroupID = row.id(C.fromLegGroupID.rawValue)
        toLegGroupID = row.id(C.toLegGroupID.rawValue)
        transferCount = try row.int(C.transferCount.rawValue)
        durationLimit = try row.positiveInt(C.durationLimit.rawValue)
        durationLimitType = try row.enumeration(C.durationLimitType.rawValue)
        fareTransferType = try row.requiredEnumeration(C.fareTransferType.rawValue)
        fareProductID = row.id(C.fareProductID.rawValue)

        if let transferCount, transferCount == 0 || transferCount < -1 {
            throw row.error(C.transferCount.rawValue, "is not -1 (no limit) or a positive integer")
        }
        if let fromLegGroupID, let toLegGroupID, fromLegGroupID == toLegGroupID {
            if transferCount == nil {
                throw row.ruleError(C.transferCount.rawValue, "is required when from_leg_group_id equals to_leg_group_id")
            }
        } else if transferCount != nil {
            throw row.ruleError(C.transferCount.rawValue, "is forbidden unless from_leg_group_id equals to_leg_group_id")
        }
        if durationLimit != nil && durationLimitType == nil {
            throw row.ruleError(C.durationLimitType.rawValue, "is required when duration_limit is given")
        }
        if durationLimit == nil && durationLimitType != nil {
            throw row.ruleError(C.durationLimitType.rawValue, "is forbidden when duration_limit is empty")
        }
    }
}
