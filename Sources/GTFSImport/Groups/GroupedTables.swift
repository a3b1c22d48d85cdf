import GTFS

/// The tables whose rows an incremental import compares group by group, and their group column.
///
/// A table is grouped when its primary key has several columns and starts with the record's first
/// column: `stop_times` by `trip_id`, `shapes` by `shape_id`, `calendar_dates` by `service_id`,
/// `frequencies` by `trip_id`, and a few small fare and area tables. Keys of one group share that column,
/// so two rows with the same key are always in the same group.
enum GroupedTables {
    /// The group column of each grouped table.
    static let columns: [GTFSFile: String] = {
        var result: [GTFSFile: String] = [:]
        for file in GTFSFile.allCases {
            guard let key = SchemaV2.primaryKeys[GTFSSchema.tableName(for: file)], key.count >= 2,
                key.first == file.insertableType.columnNames.first
            else { continue }
            result[file] = key[0]
        }
        return result
    }()

    /// The group column of `file`'s table, or `nil` when the table is not grouped.
    static func column(for file: GTFSFile) -> String? { columns[file] }
}
