import Foundation
import GTFS
import GTFSFetch
import GTFSImport
import GTFSPostgres
import GTFSStoreCore
import ToolSupport

extension ImportCommand {
    /// Fetches the feed at `text` and imports it into the store `--db` names: the download beside an SQLite
    /// file (the system's temporary directory for a server), with its own progress line, then the import
    /// as a file's. SIGINT and SIGTERM cancel either.
    func runURLImport(
        _ text: String, options: ImportOptions
    ) throws(ToolFailure) -> (Result<URLImportOutcome, any Error>, String, SignalCancellation.Received?) {
        let fetcher: FeedFetcher
        do {
            fetcher = try FeedFetcher(url: text, options: fetch.options)
        } catch {
            throw ToolFailure("\(error); nothing was imported")
        }
        let (store, name, progressQueue, line) = try openTarget()
        let download = quiet ? nil : DownloadLine(isTerminal: StandardError.isTerminal, source: fetcher.displayURL)
        var showImport: (@Sendable (ImportProgress) -> Void)?
        if let line {
            showImport = { progress in
                download?.finish()
                line.show(progress)
            }
        }
        let run = makeURLImport(fetcher, options: options, store: store, progress: showImport, queue: progressQueue)
        let (result, signal) = Blocking.runCancellable(
            giveUpAfter: store == nil ? nil : Self.serverGiveUp, givingUp: { StandardError.line("cancelled by \($0.name); \(name) is unchanged") }
        ) {
            try await run.run { progress in download?.show(progress) }
        }
        download?.finish()
        progressQueue.sync { line?.finish() }
        return (result, name, signal)
    }

    /// The URL import into the server's store, or into the SQLite file by path (so that its first import
    /// and `--full` build a new file, as a file import does).
    private func makeURLImport(
        _ fetcher: FeedFetcher, options: ImportOptions, store: PostgresStore?, progress: (@Sendable (ImportProgress) -> Void)?,
        queue: DispatchQueue
    ) -> URLImport {
        if let store {
            let directory = FileManager.default.temporaryDirectory
            return URLImport(
                fetcher: fetcher, options: options, directory: directory,
                readCheck: { try store.feedCheck(named: options.feed) },
                importFeed: { source, options in
                    try await store.importFeed(from: source, options: options, progressQueue: queue, progress: progress)
                },
                recordCheck: { try store.recordFeedCheck($0) })
        }
        let path = database.path ?? ""
        return URLImport(
            fetcher: fetcher, options: options, directory: URL(fileURLWithPath: path).deletingLastPathComponent(),
            readCheck: {
                // A file of an older schema has no checks (it is migrated by the import).
                guard FileManager.default.fileExists(atPath: path) else { return nil }
                return try? GTFSStore(readingFrom: path).feedCheck(named: options.feed)
            },
            importFeed: { source, options in
                let operation = ImportOperation(source: source, databasePath: path, options: options, progressQueue: queue, progressHandler: progress)
                return try await operation.runOnThread().get()
            },
            recordCheck: { try GTFSStore(path: path).recordFeedCheck($0) })
    }

    /// Prints how an import ended: a file's summary, or a line for a feed that was not modified or unchanged.
    func report(_ outcome: URLImportOutcome, database: String, changesProblem: String?) throws {
        let source = inputs.first.flatMap { URL(string: $0) }.map(RedactedURL.text) ?? inputs.joined(separator: " ")
        let (result, line): (String, String)
        switch outcome {
        case .imported(let summary):
            let isURL = inputs.first.map(FeedFetcher.isURL) ?? false
            return try report(summary, database: database, changesProblem: changesProblem, source: isURL ? source : nil)
        case .notModified(let since): (result, line) = ("not modified", "not modified since \(since)")
        case .unchanged: (result, line) = ("unchanged", "unchanged: the download has the same bytes as the version held")
        }
        if json {
            var fields: [String: String] = ["feed": feedOption.feed, "source": source, "database": database, "result": result]
            if case .notModified(let since) = outcome { fields["since"] = since }
            print(try JSONText.pretty(fields))
        } else if !quiet {
            let text = "feed \(GTFSError.displayable(feedOption.feed)): \(line) (\(source)); \(GTFSError.displayable(database)) is unchanged"
            if changes == "-" { StandardError.line(text) } else { print(text) }
        }
    }
}

extension URLImportOutcome {
    /// Whether the store is as it was.
    var changedNothing: Bool {
        if case .imported(let summary) = self { return summary.changedNothing }
        return true
    }
}
