import Foundation
import GTFS
import GTFSImport

/// What `gtfs-import` says after an import besides the summary table (``GTFSImport/ImportSummary/report(source:database:)``):
/// the first errors and warnings on standard error, all of them for `--errors`.
enum SummaryReport {
    /// Errors shown on standard error; `--errors FILE` writes all of them.
    static let shownErrors = 10

    /// Every error and warning, one per line (`file:line: column: message`).
    static func allProblems(_ summary: ImportSummary) -> [String] {
        summary.tables.flatMap { $0.errors.map { "error: \($0)" } + $0.warnings.map { "warning: \($0)" } }
            + summary.warnings.map { "warning: \($0)" }
            + summary.skippedFiles.map { "skipped: \($0): not in the GTFS reference" }
    }

    /// The first errors, for standard error.
    /// - Parameter errorsFile: the `--errors` file, which holds them all.
    static func firstErrors(_ summary: ImportSummary, errorsFile: String?) -> [String] {
        let errors = summary.tables.flatMap(\.errors)
        guard !errors.isEmpty else { return [] }
        var lines = errors.prefix(shownErrors).map(\.description)
        if summary.rowsRejected > lines.count {
            lines.append("… \(Format.count(summary.rowsRejected - lines.count)) more rejected rows \(allIn(errorsFile))")
        }
        return lines
    }

    /// The first warnings, for standard error, after the files skipped (said once).
    static func firstWarnings(_ summary: ImportSummary, errorsFile: String?) -> [String] {
        var lines: [String] = []
        if !summary.skippedFiles.isEmpty {
            let names = summary.skippedFiles.prefix(5).map { GTFSError.displayable($0) }.joined(separator: ", ")
            let count = summary.skippedFiles.count
            lines.append(
                "skipped \(count == 1 ? "1 file that is" : "\(Format.count(count)) files that are") not in the GTFS reference: "
                    + names + (count > 5 ? ", …" : ""))
        }
        let warnings = summary.tables.flatMap(\.warnings) + summary.warnings
        lines += warnings.prefix(shownErrors).map { "warning: \($0)" }
        let shown = min(warnings.count, shownErrors)
        if summary.warningCount > shown {
            lines.append("… \(Format.count(summary.warningCount - shown)) more warnings \(allIn(errorsFile))")
        }
        return lines
    }

    private static func allIn(_ errorsFile: String?) -> String {
        errorsFile.map { "(all in \(GTFSError.displayable($0)))" } ?? "(--errors FILE writes them all)"
    }
}
