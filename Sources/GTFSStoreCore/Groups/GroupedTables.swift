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

    /// The most rows of one group an incremental import holds in memory until the group ends (about 10 MB
    /// of stop times): a larger group is staged as it comes, so that memory stays bounded whatever a group's
    /// size (a trip of a million stop times, a shape of a million points).
    package static let maxHeldRows = 10_000

    /// The group column of `file`'s table, or `nil` when the table is not grouped.
    package static func column(for file: GTFSFile) -> String? { columns[file] }
}
