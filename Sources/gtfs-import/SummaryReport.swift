import GTFS
import GTFSImport

/// The summary table printed after an import.
enum SummaryReport {
    /// Errors shown on standard error; `--errors FILE` writes all of them.
    static let shownErrors = 10

    /// The table for standard output: rows per table, rejected rows, warnings, integrity, time and rate.
    static func text(_ summary: ImportSummary, source: String, database: String) -> String {
        var lines: [String] = []
        lines.append(
            "Imported \(source) into \(database) in \(Format.seconds(summary.duration)) "
                + "(\(Format.count(Int(summary.rowsPerSecond))) rows/s)")
        lines.append("")
        let header = ["file", "rows read", "stored", "rejected", "warnings"]
        var rows: [[String]] = summary.tables.map { table in
            [table.fileName, Format.count(table.rowsRead), Format.count(table.rowsStored), Format.count(table.rowsRejected),
             Format.count(table.warningCount)]
        }
        rows.append([
            "total", Format.count(summary.tables.reduce(0) { $0 + $1.rowsRead }), Format.count(summary.rowsStored),
            Format.count(summary.rowsRejected), Format.count(summary.warningCount),
        ])
        let widths = (0 ..< header.count).map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        func render(_ cells: [String]) -> String {
            cells.enumerated().map { column, cell in
                let pad = String(repeating: " ", count: widths[column] - cell.count)
                return column == 0 ? cell + pad : pad + cell
            }.joined(separator: "  ")
        }
        lines.append(render(header))
        lines += rows.map(render)
        lines.append("")
        lines.append(
            "load \(Format.seconds(summary.loadDuration)), indexes \(Format.seconds(summary.indexDuration)), "
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
