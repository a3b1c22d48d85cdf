/// A row of `fare_leg_rules.txt`: the fare product for a leg by network, areas and timeframes.
public struct FareLegRule: GTFSRecord, Hashable {
    /// The file the records come from.
    public static let file = GTFSFile.fareLegRules

    /// The fields of `fare_leg_rules.txt`, in the order of the reference: name, type and presence of each.
    public enum Field: Int, GTFSField {
        /// A column of `fare_leg_rules.txt`, named like the case in snake case (``spec`` gives its name,
        /// type and presence).
        case legGroupID, networkID, fromAreaID, toAreaID, fromTimeframeGroupID, toTimeframeGroupID, fareProductID
        /// A column of `fare_leg_rules.txt`, named like the case in snake case (``spec`` gives its name,
        /// type and presence).
        case rulePriority

        /// The field as the reference describes it.
        public var spec: FieldSpec {
            switch self {
            case .legGroupID: FieldSpec("leg_group_id", .id)
            case .networkID: FieldSpec("network_id", .id)
            case .fromAreaID: FieldSpec("from_area_id", .id)
            case .toAreaID: FieldSpec("to_area_id", .id)
            case .fromTimeframeGroupID: FieldSpec("from_timeframe_group_id", .id)
            case .toTimeframeGroupID: FieldSpec("to_timeframe_group_id", .id)
            case .fareProductID: FieldSpec("fare_product_id", .id, .required)
            // Written as no value when the file lacks the column (see `hasRulePriorityColumn`).
            case .rulePriority: FieldSpec("rule_priority", .integer)
            }
        }

        /// The key: `network_id`, `from_area_id`, `to_area_id`, `from_timeframe_group_id`, `to_timeframe_group_id`, `fare_product_id`.
        public static let key: [Field] = [.networkID, .fromAreaID, .toAreaID, .fromTimeframeGroupID, .toTimeframeGroupID, .fareProductID]
    }


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
    /// - Parameter row: one row of `fare_leg_rules.txt`.
    /// - Throws: ``GTFSError`` for an invalid or missing value.
    public init(row: CSVRow<Field>) throws {
        legGroupID = row.id(.legGroupID)
        networkID = row.id(.networkID)
        fromAreaID = row.id(.fromAreaID)
        toAreaID = row.id(.toAreaID)
        fromTimeframeGroupID = row.id(.fromTimeframeGroupID)
        toTimeframeGroupID = row.id(.toTimeframeGroupID)
        fareProductID = try row.requiredID(.fareProductID)
        rulePriority = try row.nonNegativeInt(.rulePriority) ?? 0
        hasRulePriorityColumn = row.hasColumn(.rulePriority)
    }
}

extension FareLegRule {
    /// Writes one value per field, in ``Field`` order, in their primitive form (see ``FieldSink``).
    /// - Parameter sink: receives the values.
    public func write<Sink: FieldSink>(to sink: inout Sink) {
        sink.write(legGroupID)
        sink.write(networkID)
        sink.write(fromAreaID)
        sink.write(toAreaID)
        sink.write(fromTimeframeGroupID)
        sink.write(toTimeframeGroupID)
        sink.write(fareProductID)
        // NULL when the file has no rule_priority column: empty ids then mean something else.
        if hasRulePriorityColumn { sink.write(rulePriority) } else { sink.writeNull() }
    }
}
