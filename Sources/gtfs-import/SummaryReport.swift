import Foundation
import GTFS
import GTFSImport

/// The summary table printed after an import.
enum SummaryReport {
    /// Errors shown on standard error; `--errors FILE` writes all of them.
    static let shownErrors = 10

    /// The table for standard output: rows per table, rejected rows, warnings, integrity, time and rate.
    static func text(_ summary: ImportSummary, source: String, database: String) -> String {
        var lines: [String] = []
        let kind = summary.kind == .incremental ? "incremental" : "full"
        lines.append(
            "Imported \(GTFSError.displayable(source)) into \(GTFSError.displayable(database)) "
                + "(feed \(GTFSError.displayable(summary.feed)), \(kind)) in \(Format.seconds(summary.duration)) "
                + "(\(Format.count(Int(summary.rowsPerSecond))) rows/s)")
        if summary.changedNothing {
            lines.append("nothing changed: the feed already holds exactly these rows; the database was not written")
        }
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
        if summary.integrity.isClean {
            lines.append("integrity: all \(summary.integrity.checksRun) checked references resolve")
        } else {
            lines.append("integrity: \(summary.integrity.findings.count) of \(summary.integrity.checksRun) checked references point nowhere")
            lines += summary.integrity.findings.map { "  \($0)" }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Every error and warning, one per line (`file:line: column: message`).
    static func allProblems(_ summary: ImportSummary) -> [String] {
        summary.tables.flatMap { $0.errors.map { "error: \($0)" } + $0.warnings.map { "warning: \($0)" } }
            + summary.warnings.map { "warning: \($0)" }
    }

    /// The first errors, for standard error.
    static func firstErrors(_ summary: ImportSummary) -> [String] {
        let errors = summary.tables.flatMap(\.errors)
        guard !errors.isEmpty else { return [] }
        var lines = errors.prefix(shownErrors).map(\.description)
        if summary.rowsRejected > lines.count {
            lines.append("… \(Format.count(summary.rowsRejected - lines.count)) more rejected rows (--errors FILE writes them all)")
        }
        return lines
    }
}
