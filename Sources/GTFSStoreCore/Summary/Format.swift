package import GTFS
import Foundation

/// Number, time and table formats for people: the summary report's, and the tools'.
package enum Format {
    /// `12,793`.
    package static func count(_ value: Int) -> String { Count.grouped(value) }

    /// A date as the tools print it: `2025-11-24`.
    package static func date(_ date: GTFSDate) -> String {
        String(format: "%04d-%02d-%02d", date.year, date.month, date.day)
    }

    /// `0:04`, `1:02:03`.
    package static func clock(_ duration: Duration) -> String {
        let total = max(0, Int(duration.components.seconds))
        let (hours, minutes, seconds) = (total / 3600, total / 60 % 60, total % 60)
        let two = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
        return hours > 0 ? "\(hours):\(two(minutes)):\(two(seconds))" : "\(minutes):\(two(seconds))"
    }

    /// `1.23 s`.
    package static func seconds(_ duration: Duration) -> String {
        let hundredths = Int((duration / .milliseconds(10)).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction) s"
    }

    /// A plain-text table: columns padded to their widest cell, numbers right-aligned, the columns in
    /// `leftAligned` (and the first) left-aligned, two spaces between columns; one line per row.
    package static func table(header: [String], rows: [[String]], leftAligned: Set<Int> = [0]) -> String {
        let widths = columnWidths(header: header, rows: rows)
        return ([header] + rows).map { row($0, widths: widths, leftAligned: leftAligned) }.joined()
    }

    /// The width of each column of ``table(header:rows:leftAligned:)``: its widest cell.
    package static func columnWidths(header: [String], rows: [[String]]) -> [Int] {
        header.indices.map { column in ([header] + rows).map { $0.indices.contains(column) ? $0[column].count : 0 }.max() ?? 0 }
    }

    /// One line of a table with the given column widths (a longer cell widens its own line only).
    package static func row(_ cells: [String], widths: [Int], leftAligned: Set<Int> = [0]) -> String {
        let text = cells.enumerated().map { column, cell in
            let pad = String(repeating: " ", count: max(0, (widths.indices.contains(column) ? widths[column] : 0) - cell.count))
            return column == 0 || leftAligned.contains(column) ? cell + pad : pad + cell
        }.joined(separator: "  ")
        return String(text.reversed().drop(while: { $0 == " " }).reversed()) + "\n"
    }
}
