/// A row of `fare_leg_rules.txt`: the fare product for a leg by network, areas and timeframes.
public struct FareLegRule: GTFSRecord, Hashable {
    /// The file the records come from.
    public static let file = GTFSFile.fareLegRules

    enum Column: Int {
        case legGroupID, networkID, fromAreaID, toAreaID, fromTimeframeGroupID, toTimeframeGroupID, fareProductID
        case rulePriority
    }

    /// The columns of the reference, in order.
    public static let columns: [ColumnSpec] = [
        .optional("leg_group_id"), .optional("network_id"), .optional("from_area_id"), .optional("to_area_id"),
        .optional("from_timeframe_group_id"), .optional("to_timeframe_group_id"), .required("fare_product_id"),
        .optional("rule_priority"),
    ]

    /// `leg_group_id`: the leg group that fare transfer rules refer to.
    public var legGroupID: GTFSID?
    /// `network_id`: the route network; what `nil` means depends on ``hasRulePriorityColumn``.
    public var networkID: GTFSID?
    /// `from_area_id`: the departure area; what `nil` means depends on ``hasRulePriorityColumn``.
    public var fromAreaID: GTFSID?
    /// `to_area_id`: the arrival area; what `nil` means depends on ``hasRulePriorityColumn``.
    public var toAreaID: GTFSID?
    /// `from_timeframe_group_id`: the timeframes the leg must start in; `nil` for any time.
    public var fromTimeframeGroupID: GTFSID?
    /// `to_timeframe_group_id`: the timeframes the leg must end in; `nil` for any time.
    public var toTimeframeGroupID: GTFSID?
    /// `fare_product_id`: the fare product for the leg.
    public var fareProductID: GTFSID
    /// `rule_priority`: among matching rules the highest wins; empty (or an absent column) reads as `0`.
    public var rulePriority: Int
    /// Whether the file has a `rule_priority` column. It decides what an empty ``networkID``,
    /// ``fromAreaID`` or ``toAreaID`` means: with the column, that the field does not affect matching;
    /// without it, all values except those listed in other rows.
    public var hasRulePriorityColumn: Bool

    /// Decodes a fare leg rule.
    /// - Throws: ``GTFSError`` for an invalid or missing value.
    public init(row: Row) throws {
        typealias C = Column
        legGroupID = row.id(C.legGroupID.rawValue)
        networkID = row.id(C.networkID.rawValue)
        fromAreaID = row.id(C.fromAreaID.rawValue)
        toAreaID = row.id(C.toAreaID.rawValue)
        fromTimeframeGroupID = row.id(C.fromTimeframeGroupID.rawValue)
        toTimeframeGroupID = row.id(C.toTimeframeGroupID.rawValue)
        fareProductID = try row.requiredID(C.fareProductID.rawValue)
        rulePriority = try row.nonNegativeInt(C.rulePriority.rawValue) ?? 0
        hasRulePriorityColumn = row.hasColumn(C.rulePriority.rawValue)
    }
}
