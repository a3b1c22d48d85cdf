import GTFS

extension ImportSummary {
    /// The report `gtfs-import` prints after an import: a first line (what went where, how long), a table of
    /// rows per file (read, stored, rejected, warnings, and the changes: inserted, updated, deleted,
    /// unchanged), the time of each phase, and the reference checks' findings. An import that changed
    /// nothing says so in its first line, with a shorter table.
    ///
    /// ```swift
    /// let summary = try store.importFeedSynchronously(from: source)
    /// print(summary.report(source: "vbb.zip", database: "vbb.sqlite"), terminator: "")
    /// ```
    /// ```text
    /// Imported vbb.zip into vbb.sqlite (feed default, full) in 0.27 s (87,470 rows/s)
    ///
    /// file                rows read  stored  rejected  warnings  inserted  updated  deleted  unchanged
    /// agency.txt                  4       4         0         0         4        0        0          0
    /// …
    /// ```
    /// - Parameters:
    ///   - source: the input's name, for the first line.
    ///   - database: the database's name, for the first line.
    /// - Returns: lines ending with a newline; values from the feed have their control characters escaped.
    public func report(source: String, database: String) -> String {
        let summary = self
        var lines: [String] = []
        if summary.changedNothing {
            lines.append(
                "Nothing changed: feed \(GTFSError.displayable(summary.feed)) in \(GTFSError.displayable(database)) already holds "
                    + "exactly the rows of \(GTFSError.displayable(source)) (checked in \(Format.seconds(summary.duration))); "
                    + "the database was not written")
            lines.append("")
            let rows = summary.tables.map { table in
                [GTFSError.displayable(table.fileName) + (table.isUnchangedFile ? " (same file)" : "")]
                    + [table.rowsRead, table.rowsRejected, table.warningCount].map(Format.count)
            }
            lines.append(Format.table(header: ["file", "rows read", "rejected", "warnings"], rows: rows).trimmingCharacters(in: .newlines))
            return lines.joined(separator: "\n") + "\n"
        }
        let kind = summary.kind == .incremental ? "incremental" : "full"
        lines.append(
            "Imported \(GTFSError.displayable(source)) into \(GTFSError.displayable(database)) "
                + "(feed \(GTFSError.displayable(summary.feed)), \(kind)) in \(Format.seconds(summary.duration)) "
                + "(\(Format.count(Int(summary.rowsPerSecond))) rows/s)")
        lines.append("")
        let header = ["file", "rows read", "stored", "rejected", "warnings", "inserted", "updated", "deleted", "unchanged"]
        func cells(_ name: String, _ read: Int, _ stored: Int, _ rejected: Int, _ warnings: Int, _ changes: TableChanges) -> [String] {
            [name] + [read, stored, rejected, warnings, changes.inserted, changes.updated, changes.deleted, changes.unchanged].map(Format.count)
        }
        var rows: [[String]] = summary.tables.map { table in
            cells(
                GTFSError.displayable(table.fileName) + (table.isUnchangedFile ? " (same file)" : ""), table.rowsRead, table.rowsStored, table.rowsRejected,
                table.warningCount, table.changes)
        }
        if !summary.warnings.isEmpty {
            // Warnings about the feed as a whole (a table given twice, no stops), so that the column adds up.
            rows.append(cells("(feed)", 0, 0, 0, summary.warnings.count, TableChanges()))
        }
        rows.append(
            cells(
                "total", summary.tables.reduce(0) { $0 + $1.rowsRead }, summary.rowsStored, summary.rowsRejected, summary.warningCount,
                summary.changes))
        lines.append(Format.table(header: header, rows: rows).trimmingCharacters(in: .newlines))
        lines.append("")
        lines.append(
            (summary.kind == .incremental ? "hashing \(Format.seconds(summary.hashDuration)), diff \(Format.seconds(summary.diffDuration)), " : "")
                + "load \(Format.seconds(summary.loadDuration)), indexes \(Format.seconds(summary.indexDuration)), "
                + "reference checks \(Format.seconds(summary.integrityDuration))")
        if summary.integrity.checksRun == 0 {
            // No changed table holds a reference: nothing to say.
        } else if summary.integrity.isClean {
            lines.append("integrity: all \(summary.integrity.checksRun) checked references resolve")
        } else {
            lines.append("integrity: \(summary.integrity.findings.count) of \(summary.integrity.checksRun) checked references point nowhere")
            lines += summary.integrity.findings.map { "  \($0)" }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
