/// References between tables that point to no row, found after a load: stop_times to trips and stops,
/// trips to routes, services and shapes, stops to parent stations and levels, transfers, pathways, fare
/// tables and more: 40 references in all, each checked when the import loaded its table or the table
/// it refers to.
///
/// A finding does not reject rows: a feed with dangling references is still imported, and the report
/// says where they are.
public struct IntegrityReport: Sendable {
    /// The references with at least one dangling row, in check order.
    public var findings: [IntegrityFinding] = []
    /// The checks that ran (a check runs when the import loaded its table or a table it refers to).
    public var checksRun = 0

    /// Creates an empty report.
    package init() {}

    /// Whether every checked reference resolves.
    public var isClean: Bool { findings.isEmpty }
}

/// One reference with dangling rows: how many rows, and the first missing values.
///
/// Printed like `stop_times.stop_id → stops.stop_id: 12 rows refer to 3 missing values, e.g. "S9", "S10"`.
public struct IntegrityFinding: Sendable, Hashable, CustomStringConvertible {
    /// The table holding the reference.
    public let file: GTFSFile
    /// The referring column.
    public let column: String
    /// What the column refers to, e.g. `trips.trip_id` or `calendar.service_id or calendar_dates.service_id`.
    public let target: String
    /// Rows whose value matches no target row.
    public let rowCount: Int
    /// Distinct missing values.
    public let valueCount: Int
    /// The first missing values, sorted (at most five).
    public let examples: [String]

    /// Creates a finding.
    ///
    /// - Parameters:
    ///   - file: the table holding the reference.
    ///   - column: the referring column.
    ///   - target: what the column refers to, e.g. `trips.trip_id`.
    ///   - rowCount: rows whose value matches no target row.
    ///   - valueCount: distinct missing values.
    ///   - examples: the first missing values, sorted.
    package init(file: GTFSFile, column: String, target: String, rowCount: Int, valueCount: Int, examples: [String]) {
        self.file = file
        self.column = column
        self.target = target
        self.rowCount = rowCount
        self.valueCount = valueCount
        self.examples = examples
    }

    /// `table.column → target: N rows refer to M missing values, e.g. "a", "b"`.
    public var description: String {
        let rows = rowCount == 1 ? "1 row refers" : "\(rowCount) rows refer"
        let values = valueCount == 1 ? "1 missing value" : "\(valueCount) missing values"
        // Values from the feed: escaped, and long ones cut, so the line stays one short line.
        let shown = examples.map { "\"\(GTFSError.displayable($0.count > 100 ? $0.prefix(100) + "…" : $0))\"" }.joined(separator: ", ")
        return "\(file.rawValue).\(column) → \(target): \(rows) to \(values), e.g. \(shown)"
    }
}
