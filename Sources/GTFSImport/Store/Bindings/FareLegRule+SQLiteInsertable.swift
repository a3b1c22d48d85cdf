public import GTFS

extension FareLegRule: SQLiteInsertable {
    /// Binds one value per column, in the order of ``SQLiteInsertable/columnNames``.
    public func bind<Row: StoreRowWriter>(to row: inout Row) {
        row.bind(legGroupID)
        row.bind(networkID)
        row.bind(fromAreaID)
        row.bind(toAreaID)
        row.bind(fromTimeframeGroupID)
        row.bind(toTimeframeGroupID)
        row.bind(fareProductID)
        // NULL when the file has no rule_priority column: empty ids then mean something else.
        if hasRulePriorityColumn { row.bind(rulePriority) } else { row.bindNull() }
    }
}
