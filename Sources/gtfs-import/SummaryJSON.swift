import Foundation
import GTFS
import GTFSImport
import ToolSupport

/// The summary as `--json` prints it.
struct SummaryJSON: Encodable {
    struct Table: Encodable {
        let file: String
        let table: String
        let rowsRead: Int
        let rowsStored: Int
        let rowsRejected: Int
        let warningCount: Int
        let errors: [String]
        let warnings: [String]
        let contentHash: String?
        let sameFile: Bool
        let inserted: Int
        let updated: Int
        let deleted: Int
        let unchanged: Int
    }

    struct Finding: Encodable {
        let table: String
        let column: String
        let target: String
        let rowCount: Int
        let valueCount: Int
        let examples: [String]
    }

    let source: String
    let database: String
    let feed: String
    let kind: String
    let changedNothing: Bool
    let contentHash: String?
    let importID: Int64?
    let mode: String
    let exitStatus: Int32
    let durationSeconds: Double
    let loadSeconds: Double
    let indexSeconds: Double
    let integritySeconds: Double
    let hashSeconds: Double
    let diffSeconds: Double
    let bytesRead: Int64
    let rowsStored: Int
    let rowsRejected: Int
    let rowsPerSecond: Double
    let replacedTables: [String]
    let tables: [Table]
    let integrity: [Finding]
    let warnings: [String]

    init(_ summary: ImportSummary, source: String, database: String, exitStatus: Int32) {
        func seconds(_ duration: Duration) -> Double { duration / .seconds(1) }
        self.source = source
        self.database = database
        feed = summary.feed
        kind = summary.kind.rawValue
        changedNothing = summary.changedNothing
        contentHash = summary.contentHash
        importID = summary.importID
        switch summary.mode {
        case .atomic: mode = "atomic"
        case .batched(let rows): mode = "batched(\(rows))"
        }
        self.exitStatus = exitStatus
        durationSeconds = seconds(summary.duration)
        loadSeconds = seconds(summary.loadDuration)
        indexSeconds = seconds(summary.indexDuration)
        integritySeconds = seconds(summary.integrityDuration)
        hashSeconds = seconds(summary.hashDuration)
        diffSeconds = seconds(summary.diffDuration)
        bytesRead = summary.bytesRead
        rowsStored = summary.rowsStored
        rowsRejected = summary.rowsRejected
        rowsPerSecond = summary.rowsPerSecond
        replacedTables = summary.replacedTables.map(GTFSSchema.tableName(for:))
        tables = summary.tables.map { table in
            Table(
                file: table.fileName, table: GTFSSchema.tableName(for: table.file), rowsRead: table.rowsRead,
                rowsStored: table.rowsStored, rowsRejected: table.rowsRejected, warningCount: table.warningCount,
                errors: table.errors.map(\.description), warnings: table.warnings.map(\.description),
                contentHash: table.contentHash, sameFile: table.isUnchangedFile, inserted: table.changes.inserted,
                updated: table.changes.updated, deleted: table.changes.deleted, unchanged: table.changes.unchanged)
        }
        integrity = summary.integrity.findings.map { finding in
            Finding(
                table: GTFSSchema.tableName(for: finding.file), column: finding.column, target: finding.target,
                rowCount: finding.rowCount, valueCount: finding.valueCount, examples: finding.examples)
        }
        warnings = summary.warnings.map(\.description)
    }

    /// Pretty, key-sorted JSON text.
    func text() throws -> String { try JSONText.pretty(self) }
}
