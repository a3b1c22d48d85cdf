import ArgumentParser
import Foundation
import GTFS
import GTFSImport
import ToolSupport

import Platform

/// `gtfs-import diff OLD NEW`: the rows that differ between two versions of a feed, as JSON Lines,
/// without a database to manage: OLD is imported into a temporary one, NEW applied to it as an
/// incremental import, and its changes printed; the database is deleted at the end.
struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Print the rows that differ between two versions of a feed, as JSON Lines.",
        discussion: """
            OLD and NEW are each a directory, a .zip feed or a single GTFS file. One line per inserted, \
            updated or deleted row (table, key, and for an update the columns with their old and new \
            values), then a line that counts them per table. Rows rejected as invalid are left out of their \
            version (a warning says how many), so a key valid in one version only shows as inserted or \
            deleted. The temporary database lives in $TMPDIR and is removed at the end.

            Exit status: 0 the versions hold the same rows, 1 they differ, 2 trouble (a usage error, an \
            unreadable feed); 130 or 143 when cancelled by SIGINT or SIGTERM.
            """
    )

    @Argument(help: "The old version: a directory, a .zip or a GTFS file.")
    var old: String

    @Argument(help: "The new version: a directory, a .zip or a GTFS file.")
    var new: String

    @Option(name: .long, help: "The table of both files, when their names do not say (e.g. stop_times).")
    var table: String?

    func validate() throws {
        if let table, GTFSFile(fileName: table) == nil { throw ValidationError("--table \(table) is not a GTFS table (e.g. stops, stop_times)") }
        if old == "-" || new == "-" { throw ValidationError("diff reads files, not standard input") }
    }

    func run() throws {
        let table = self.table.flatMap { GTFSFile(fileName: $0) }
        let sources: (old: FeedSource, new: FeedSource)
        do {
            sources = (try FeedSource(path: old, table: table), try FeedSource(path: new, table: table))
        } catch {
            throw Self.trouble("\(error)")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gtfs-diff-\(UUID().uuidString)").path
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        } catch {
            throw Self.trouble("cannot create a temporary folder in \(FileManager.default.temporaryDirectory.path): \(error.localizedDescription)")
        }
        // Every way out below throws, so the temporary database goes whatever happens.
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let database = folder + "/diff.sqlite"
        let log: ChangeLog
        do {
            log = try ChangeLog(path: "-")
        } catch {
            throw Self.trouble("\(error)")
        }
        var options = ImportOptions()
        options.checksReferences = false
        // The rejection limit is for keeping a database whole; here every version is read as it is.
        options.maxRejected = .rows(.max)
        let first = try Self.importFeed(sources.old, name: old, into: database, options: options)
        options.changeHandler = { log.record($0) }
        let second: ImportSummary
        do {
            second = try Self.importFeed(sources.new, name: new, into: database, options: options)
            try log.finish()
        } catch let error as ChangeLogError {
            throw Self.trouble("\(error)")
        } catch {
            log.discard(reason: "\(new): the import failed")
            throw error
        }
        for (name, summary) in [(old, first), (new, second)] where summary.rowsRejected > 0 {
            StandardError.line(
                "\(name): \(Format.count(summary.rowsRejected)) invalid rows were rejected: a key valid in one version only shows as inserted or deleted")
        }
        if !log.isEmpty { throw ExitCode(1) }
    }

    /// Imports `source` into `database` and returns the summary.
    /// - Throws: `ExitCode` after saying why on standard error: 2 for a failure, 128 + the signal's number
    ///   for a cancel by a signal.
    private static func importFeed(_ source: FeedSource, name: String, into database: String, options: ImportOptions) throws -> ImportSummary {
        let operation = ImportOperation(source: source, databasePath: database, options: options, progressQueue: .global())
        switch SignalCancellation.run(operation) {
        case (.success(let summary), _):
            return summary
        case (.failure(let error), let signal?) where error.isCancellation:
            StandardError.line("cancelled by \(signal.name)")
            throw ExitCode(signal.exitStatus)
        case (.failure(let error), _):
            throw trouble("\(name): \(error)")
        }
    }

    /// Says `message` on standard error; the error to throw, status 2, `diff`'s status for trouble.
    private static func trouble(_ message: String) -> ExitCode {
        StandardError.line(message)
        return ExitCode(2)
    }
}
