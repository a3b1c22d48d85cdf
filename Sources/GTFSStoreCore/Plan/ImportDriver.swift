import Foundation
package import GTFS

/// What a store does for the ``ImportDriver``: say what it holds of the feed, and write a plan.
///
/// A store makes itself ready first (opens its file or schema, takes its lock, migrates); the driver then
/// asks for the feed's state, decides full or incremental, hashes the files, and hands the plan over.
/// The writer loads the files the plan reads, rebuilds the timetable, indexes, checks references and
/// records the import, inside its transaction.
package protocol StoreWriter {
    /// Whether ``write(_:)`` honours a plan's ``ImportPlan/confirmation``: it waits for it before the
    /// commit and before reporting a change, and throws ``ImportPlan/Outdated`` when a file assumed
    /// unchanged was not. Then files whose zip CRC-32 matches the stored one are hashed while the others load.
    var confirmsHashesWhileLoading: Bool { get }

    /// What the store holds of the feed, read once the store is ready and no other import writes it.
    /// - Returns: `nil` when the store does not hold the feed.
    func storedState() throws -> FeedState?

    /// A phase of the story begins (``ImportProgress/Phase/hashing``): for the progress handler.
    func begin(_ phase: ImportProgress.Phase)

    /// Writes what the plan says and records it.
    /// - Returns: the summary, without the hashing time and the empty-feed warning the driver adds.
    func write(_ plan: ImportPlan) throws -> ImportSummary

    /// The end of an import that found nothing to write: its last progress report.
    func finishUnchanged(_ summary: ImportSummary)
}

/// The import story both stores tell, written once: the plan from the source and the stored state, full
/// or incremental, the files hashed to skip the unchanged ones, and an import that changes nothing when
/// every file is as stored. What differs between stores is behind ``StoreWriter``.
package final class ImportDriver {
    package let source: FeedSource
    package let options: ImportOptions
    /// The tables the source holds.
    package let imported: Set<GTFSFile>
    /// The names of the source's files that are no GTFS table.
    private let skippedFiles: [String]
    private let start: ContinuousClock.Instant
    private let isCancelled: @Sendable () -> Bool
    /// Full until the stored state says the import is incremental: what a failure records in `imports`.
    package private(set) var kind = ImportSummary.Kind.full

    /// - Parameters:
    ///   - entries: the source's files (`FeedSource.entries()`).
    ///   - start: when the import began, for the durations.
    ///   - isCancelled: polled while hashing.
    /// - Throws: `GTFSError` when the source holds no GTFS file.
    package init(
        source: FeedSource, entries: [FeedEntry], options: ImportOptions, start: ContinuousClock.Instant,
        isCancelled: @escaping @Sendable () -> Bool
    ) throws {
        let tables = Set(entries.compactMap(\.table))
        guard !tables.isEmpty else {
            throw GTFSError(.emptyFile, file: options.recordedSource(source), message: "holds no file of the GTFS reference (agency.txt, stops.txt, …)")
        }
        self.source = source
        self.options = options
        self.imported = tables
        self.skippedFiles = entries.filter { $0.table == nil }.map(\.fileName)
        self.start = start
        self.isCancelled = isCancelled
    }

    /// The plan of an import given what the store holds of the feed. The replaced tables follow
    /// ``ImportOptions/replacement``, by default all of them for a whole feed and its own for a single file.
    package func plan(existing: FeedState?, incremental: Bool) -> ImportPlan {
        ImportPlan(
            imported: imported, existing: existing, incremental: incremental,
            replaceAll: (options.replacement ?? (source.isWholeFeed ? .allTables : .importedTables)) == .allTables)
    }

    /// Tells the story over `writer`.
    /// - Returns: the summary of the import, or of one that found nothing to change.
    package func run(_ writer: some StoreWriter) throws -> ImportSummary {
        let existing = try writer.storedState()
        guard let existing, options.update == .automatic, options.mode == .atomic else {
            return try write(plan(existing: existing, incremental: false), writer)
        }
        kind = .incremental
        let hashStart = ContinuousClock.now
        writer.begin(.hashing)
        var plan = plan(existing: existing, incremental: true)
        if writer.confirmsHashesWhileLoading {
            let assumed = try plan.assumeUnchangedFiles(in: source, stored: existing, options: options.parsing) { !self.isCancelled() }
            if !assumed.isEmpty {
                let hashedFirst = ContinuousClock.now - hashStart
                if let summary = try writeConfirming(&plan, assumed: assumed, hashedFirst: hashedFirst, hashStart: hashStart, writer) {
                    return summary
                }
                // A file with the stored CRC-32 has other content: hash every file first, and start again.
                plan = self.plan(existing: existing, incremental: true)
                try plan.findUnchangedFiles(in: source, stored: existing, options: options.parsing) { !self.isCancelled() }
            }
        } else {
            try plan.findUnchangedFiles(in: source, stored: existing, options: options.parsing) { !self.isCancelled() }
        }
        let hashDuration = ContinuousClock.now - hashStart
        if plan.isNoChange { return unchanged(plan, hashDuration: hashDuration, writer) }
        var summary = try write(plan, writer)
        summary.hashDuration = hashDuration
        return summary
    }

    /// Writes a plan that assumed the files with the stored CRC-32 unchanged, while they are hashed (see
    /// ``HashConfirmation``).
    /// - Returns: the summary, or `nil` when a file assumed unchanged was not and the plan is to be made again.
    private func writeConfirming(
        _ plan: inout ImportPlan, assumed: [(entry: FeedEntry, hash: String)], hashedFirst: Duration, hashStart: ContinuousClock.Instant,
        _ writer: some StoreWriter
    ) throws -> ImportSummary? {
        let confirmation = HashConfirmation(assumed, options: options.parsing, isCancelled: isCancelled)
        defer { confirmation.finish() }
        plan.confirmation = confirmation
        if plan.isNoChange {
            return confirmation.confirmed() ? unchanged(plan, hashDuration: ContinuousClock.now - hashStart, writer) : nil
        }
        do {
            var summary = try write(plan, writer)
            summary.hashDuration = hashedFirst + confirmation.duration
            return summary
        } catch is ImportPlan.Outdated where !isCancelled() {
            return nil
        }
    }

    /// The writer's summary, with a warning when a whole feed leaves nothing to query.
    private func write(_ plan: ImportPlan, _ writer: some StoreWriter) throws -> ImportSummary {
        var summary = try writer.write(plan)
        if let empty = emptyFeedWarning(summary) { summary.warnings.append(empty) }
        return summary
    }

    /// The summary of an incremental import whose files all match the stored version: nothing is written.
    private func unchanged(_ plan: ImportPlan, hashDuration: Duration, _ writer: some StoreWriter) -> ImportSummary {
        var summary = ImportSummary()
        summary.feed = options.feed
        summary.kind = .incremental
        summary.mode = options.mode
        summary.changedNothing = true
        summary.tables = plan.unchangedImports()
        summary.contentHash = plan.existing?.contentHash
        summary.hashDuration = hashDuration
        summary.duration = .now - start
        summary.skippedFiles = skippedFiles
        // Every file was read once, to hash it.
        summary.bytesRead = plan.hashedBytes
        writer.finishUnchanged(summary)
        return summary
    }

    /// A whole feed whose import leaves no stops, routes or trips: a feed of header-only files imports, but
    /// holds nothing to query, which is worth saying.
    private func emptyFeedWarning(_ summary: ImportSummary) -> GTFSWarning? {
        guard source.isWholeFeed else { return nil }
        let core: [GTFSFile] = [.stops, .routes, .trips]
        let hasRows = core.contains { file in
            guard let table = summary.table(file) else { return false }
            return table.rowsStored > 0 || table.isUnchangedFile || table.changes.unchanged > 0
        }
        guard !hasRows else { return nil }
        return GTFSError(.emptyFile, file: options.recordedSource(source), message: "holds no stops, routes or trips: the feed is empty")
    }
}
