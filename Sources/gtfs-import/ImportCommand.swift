import ArgumentParser
import Foundation
import GTFS
import GTFSFetch
import GTFSImport
import GTFSPostgres
import StoreTools
import ToolSupport

import Platform

/// `gtfs-import [import]`: loads GTFS files, a directory, a zip feed or standard input into an SQLite database.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import a GTFS feed (files, gzip, a directory, a .zip or standard input) into SQLite (the default command).",
        discussion: GTFSImportCommand.discussion
    )

    @Argument(help: "GTFS files (.txt/.csv, gzipped or not), a directory, a .zip feed, - for standard input, or an http(s) URL of a zip feed.")
    var inputs: [String] = []

    @OptionGroup var database: DatabaseOptions

    @Flag(name: .long, help: "With PostgreSQL: neither create nor use PostGIS (no stops.geom, no shape_lines).")
    var noPostgis = false

    @OptionGroup var feedOption: FeedOption

    @OptionGroup(title: "Feeds from URLs") var fetch: FetchArguments

    @Flag(name: .long, help: "Replace the feed's tables whole instead of applying only what changed.")
    var full = false

    @Option(name: .long, help: "The table of standard input (or of a file whose name does not say), e.g. stop_times.")
    var table: String?

    @Flag(name: .long, help: "Stop at the first bad row and change nothing (default: reject bad rows, import the rest).")
    var strict = false

    @Option(name: .long, help: ArgumentHelp("Commit every N rows so a live view sees rows arrive (not atomic).", valueName: "N"))
    var batchCommit: Int?

    @Option(name: .long, help: ArgumentHelp("Bytes read from the input at a time.", valueName: "BYTES"))
    var chunkSize = ImportOptions().parsing.chunkSize

    @Flag(name: .long, help: "No progress and no summary table (errors are still reported).")
    var quiet = false

    @Flag(name: .long, help: "Print the summary as JSON on standard output.")
    var json = false

    @Option(name: .long, help: ArgumentHelp("Write every rejected row's error and every warning to FILE.", valueName: "FILE"))
    var errors: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Write every inserted, updated and deleted row to FILE as JSON Lines (- for standard output).", valueName: "FILE"))
    var changes: String?

    @Flag(
        name: .long,
        help: "Keep the import's changes in the database's changes table, under its id in imports (one replace row per table for a full import).")
    var keepChanges = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Fail, changing nothing, when more rows of one file are rejected than N, or than P% of its rows (default 50%).",
            valueName: "N|P%"))
    var maxRejected: RejectionLimitArgument?

    @Option(name: .long, help: ArgumentHelp("The longest identifier value accepted, in bytes; a longer one rejects its row.", valueName: "BYTES"))
    var maxIDLength = ImportOptions().parsing.maxIDLength

    @Option(name: .long, help: ArgumentHelp("The longest text value accepted, in bytes; a longer one rejects its row.", valueName: "BYTES"))
    var maxTextLength = ImportOptions().parsing.maxTextLength

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Wait at most SECONDS for another import into the database to end (0: fail at once; default: as long as it takes).",
            valueName: "SECONDS"))
    var wait: Double?

    func validate() throws {
        guard !inputs.isEmpty else { throw ValidationError("give at least one input (a file, a directory, a .zip, or -), or a command: list, remove") }
        if let batchCommit, batchCommit < 1 { throw ValidationError("--batch-commit must be at least 1, got \(batchCommit)") }
        if let wait, !(wait >= 0 && wait <= Self.longestWait) {
            throw ValidationError("--wait must be 0 to \(Int(Self.longestWait)) seconds, got \(wait)")
        }
        for (flag, given) in [("--keep-changes", keepChanges), ("--changes", changes != nil)] where given && batchCommit != nil {
            throw ValidationError("\(flag) needs an atomic import: it cannot be combined with --batch-commit")
        }
        do {
            try options.validate(for: database.capabilities)
        } catch {
            throw ValidationError(Self.optionMessage(error))
        }
        if let table, GTFSFile(fileName: table) == nil { throw ValidationError("--table \(table) is not a GTFS table (e.g. stops, stop_times)") }
        if inputs.contains("-") && table == nil { throw ValidationError("standard input (-) needs --table NAME") }
        if inputs.count > 1 && table != nil { throw ValidationError("--table applies to a single input") }
        if feedOption.feed.isEmpty { throw ValidationError("--feed needs a name") }
        if changes == "-" && json { throw ValidationError("--changes - and --json both write to standard output; give --changes a FILE") }
        if inputs.contains(where: FeedFetcher.isURL) {
            guard inputs.count == 1 else { throw ValidationError("a URL is imported alone: give one URL, or files, or a directory") }
            if table != nil { throw ValidationError("--table does not apply to a URL (a zip feed)") }
        }
    }

    func run() throws {
        let url = inputs.first.flatMap { FeedFetcher.isURL($0) ? $0 : nil }
        var source: FeedSource?
        if url == nil {
            do {
                source = try makeSource()
            } catch let error as GTFSError {
                throw ToolFailure(error.description)
            }
        }
        let db = database.path ?? ""
        for (option, path) in [("--errors", errors), ("--changes", changes)] {
            let others = inputs + (option == "--changes" ? [errors ?? "-"] : [])
            guard let path, path != "-", let problem = OutputPath.problem(path, database: db, inputs: others) else { continue }
            throw ToolFailure("\(option) \(GTFSError.displayable(path)) \(problem); nothing was imported")
        }
        let changeLog: ChangeLog?
        do {
            changeLog = try changes.map { try ChangeLog(path: $0) }
        } catch {
            throw ToolFailure("--changes: \(error); nothing was imported")
        }
        var options = self.options
        options.changeHandler = nil
        if let changeLog {
            options.changeHandler = { changeLog.record($0) }
            // The change list is complete, and a file's on storage, before the import commits.
            options.beforeCommit = { try changeLog.prepareCommit() }
        }
        let (result, name, signal) =
            if let url {
                try runURLImport(url, options: options)
            } else {
                try runImport(source ?? .files(paths: inputs), options: options)
            }
        switch result {
        case .success(let outcome):
            var changesProblem: String?
            do {
                try changeLog?.finish()
            } catch {
                if outcome.changedNothing {
                    changeLog?.discard(reason: "\(error)")
                    throw ToolFailure("--changes: \(error); the import changed nothing")
                }
                changesProblem = "\(name) was imported, but --changes: \(error)"
            }
            try report(outcome, database: name, changesProblem: changesProblem)
        case .failure(let error):
            changeLog?.discard(reason: "\(error)")
            throw Self.failure(error, database: name, signal: signal)
        }
    }

    /// The message and status of a failed import.
    static func failure(_ error: any Error, database name: String, signal: SignalCancellation.Received?) -> ToolFailure {
        guard let error = error as? ImportError else {
            if let signal { return ToolFailure("cancelled by \(signal.name); \(name) is unchanged", status: signal.exitStatus) }
            return ToolFailure("\(error); nothing was imported")
        }
        if error.isCancellation, let signal {
            let what = error.stoppedAt.map { "rows committed before the cancel stay: \($0)" } ?? "\(name) is unchanged"
            return ToolFailure("cancelled by \(signal.name); \(what)", status: signal.exitStatus)
        }
        if case .busy = error { return ToolFailure("\(error); nothing was imported (--wait SECONDS waits for it)") }
        return ToolFailure(error.isCancellation ? error.description : "\(error); nothing was imported")
    }

    /// Runs the import into the store `--db` names, with the progress line unless `--quiet`, SIGINT and
    /// SIGTERM cancelling it. A server that does not answer the cancel (stopped, or its host gone) could
    /// hold the process for ever: a second after the signal it ends whatever happens, the server rolling
    /// back the transaction of a closed connection.
    /// - Returns: the outcome, the store's name for messages (a server without its password), and the
    ///   signal that cancelled the import, if one did.
    private func runImport(
        _ source: FeedSource, options: ImportOptions
    ) throws(ToolFailure) -> (Result<URLImportOutcome, any Error>, String, SignalCancellation.Received?) {
        let (store, name, progressQueue, line) = try openTarget()
        var handler: (@Sendable (ImportProgress) -> Void)?
        if let line { handler = { line.show($0) } }
        let operation =
            if let store {
                ImportOperation(source: source, store: store, options: options, progressQueue: progressQueue, progressHandler: handler)
            } else {
                ImportOperation(source: source, databasePath: database.path ?? "", options: options, progressQueue: progressQueue, progressHandler: handler)
            }
        let (result, signal) = SignalCancellation.run(operation, giveUpAfter: store == nil ? nil : Self.serverGiveUp) { signal in
            StandardError.line("cancelled by \(signal.name); \(name) is unchanged")
        }
        progressQueue.sync { line?.finish() }
        return (result.map { .imported($0) }.mapError { $0 }, name, signal)
    }

    /// The server's store when `--db` names one (the file is opened by the import), the store's name for
    /// messages (a server without its password), and the progress line with its queue (none with `--quiet`).
    func openTarget() throws(ToolFailure) -> (PostgresStore?, String, DispatchQueue, ProgressLine?) {
        var store: PostgresStore?
        if database.isServer {
            store = try database.openServer(nothing: "nothing was imported")
            store?.usesPostGIS = !noPostgis
        }
        let name = store.map { "\($0.target) schema \(database.schema)" } ?? database.path ?? ""
        let progressQueue = DispatchQueue(label: "gtfs-import.progress")
        let line = quiet ? nil : ProgressLine(isTerminal: StandardError.isTerminal, database: name, queue: progressQueue)
        return (store, name, progressQueue, line)
    }

    /// How long a cancelled import into a server may take to end before the process ends anyway.
    static let serverGiveUp = Duration.seconds(1)

    /// The longest `--wait`: a day.
    static let longestWait = 86_400.0

    /// The import's options from the arguments.
    var options: ImportOptions {
        var options = ImportOptions()
        options.feed = feedOption.feed
        options.keepsChanges = keepChanges
        options.update = full ? .full : .automatic
        options.parsing.strict = strict
        options.parsing.chunkSize = chunkSize
        options.parsing.maxIDLength = maxIDLength
        options.parsing.maxTextLength = maxTextLength
        if let maxRejected { options.maxRejected = maxRejected.limit }
        if let wait { options.lockWait = .milliseconds(Int((wait * 1000).rounded())) }
        if let batchCommit { options.mode = .batched(rowsPerCommit: batchCommit) }
        if errors != nil { options.parsing.maxStoredErrors = .max; options.parsing.maxStoredWarnings = .max }
        // What `--changes` asks for, to be checked; `run` gives the handler that writes them.
        if changes != nil { options.changeHandler = { _ in } }
        return options
    }

    /// `--chunk-size: 0 is out of range (…)` for an option the library refuses: the flag that sets it.
    static func optionMessage(_ error: ImportError) -> String {
        guard case .invalidOption(let option, let problem) = error else { return error.description }
        let flags = [
            "parsing.chunkSize": "--chunk-size", "parsing.maxIDLength": "--max-id-length", "parsing.maxTextLength": "--max-text-length",
            "maxRejected": "--max-rejected", "feed": "--feed", "changeHandler": "--changes", "keepsChanges": "--keep-changes",
            "mode": "--batch-commit", "lockWait": "--wait",
        ]
        return "\(flags[option] ?? option): \(problem)"
    }

    /// The feed source the arguments name.
    private func makeSource() throws -> FeedSource {
        let table = self.table.flatMap { GTFSFile(fileName: $0) }
        if inputs.count > 1 {
            for path in inputs {
                let source = try FeedSource(path: path)
                guard case .file = source else { throw GTFSError(.unreadable, file: path, message: "is not a single file; give a directory or zip alone") }
                guard GTFSFile(fileName: path) != nil else { throw noTable(path) }
            }
            return .files(paths: inputs)
        }
        let source = try FeedSource(path: inputs[0], table: table)
        if case .file(let path, nil) = source, GTFSFile(fileName: path) == nil { throw noTable(path) }
        return source
    }

    private func noTable(_ path: String) -> GTFSError {
        GTFSError(.unreadable, file: path, message: "names no GTFS table (stops.txt, stop_times.txt.gz, …); give --table NAME")
    }

    /// Prints the summary and errors, writes `--errors`, and exits 3 when rows were rejected, 4 when the
    /// committed import's change list could not be completed.
    /// - Parameters:
    ///   - database: the database as messages name it (a server without its password).
    ///   - changesProblem: what went wrong with `--changes` after the commit.
    ///   - source: the source as the summary names it; the inputs unless given.
    func report(_ summary: ImportSummary, database: String, changesProblem: String? = nil, source: String? = nil) throws {
        let sourceName = source ?? inputs.joined(separator: " ")
        let status =
            changesProblem != nil ? GTFSImportCommand.Status.changesIncomplete : summary.rowsRejected > 0 ? GTFSImportCommand.Status.rejectedRows : 0
        if let errors {
            let text = SummaryReport.allProblems(summary).map { $0 + "\n" }.joined()
            do {
                try Data(text.utf8).write(to: URL(fileURLWithPath: errors))
            } catch {
                StandardError.line("\(errors): cannot write the errors file: \(error.localizedDescription)")
            }
        }
        if json {
            print(try SummaryJSON(summary, source: sourceName, database: database, exitStatus: status).text())
        } else if !quiet {
            // Standard output holds the changes when they go there.
            let text = summary.report(source: sourceName, database: database)
            if changes == "-" { StandardError.write(text) } else { print(text, terminator: "") }
        }
        if !quiet {
            for line in SummaryReport.firstWarnings(summary, errorsFile: errors) { StandardError.write(line + "\n") }
        }
        for line in SummaryReport.firstErrors(summary, errorsFile: errors) { StandardError.write(line + "\n") }
        if let changesProblem { StandardError.line(changesProblem) }
        if status != 0 { throw ExitCode(status) }
    }

}
