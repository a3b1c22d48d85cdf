package import GTFS

/// The tables whose rows an incremental import compares group by group, and their group column: those
/// whose description has a group field (``GTFS/TableDescription/groupField``): `stop_times` by `trip_id`,
/// `shapes` by `shape_id`, `calendar_dates` by `service_id`, `frequencies` by `trip_id`, and a few small fare
/// and area tables. Keys of one group share that column, so two rows with the same key are always in the
/// same group.
package enum GroupedTables {
    /// The group column of each grouped table.
    static let columns: [GTFSFile: String] = Dictionary(
        uniqueKeysWithValues: GTFSFile.allCases.compactMap { file in file.table.groupField.map { (file, $0.name) } })

    /// The group column of `file`'s table, or `nil` when the table is not grouped.
    package static func column(for file: GTFSFile) -> String? { columns[file] }
}
