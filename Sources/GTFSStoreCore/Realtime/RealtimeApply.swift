import Foundation

/// Applies a realtime message to a store, the same way in both: in the caller's transaction, entity by
/// entity, writing only what differs from what the source said last (docs/Database.md, "Realtime").
///
/// A message whose digest is the last one applied from its source writes nothing. Otherwise each entity
/// whose digest is unchanged is left as it is; a changed one has its rows replaced; one the message no
/// longer lists is deleted with its rows (`FULL_DATASET` is the source's whole state).
package enum RealtimeApply {
    package static func run(
        _ session: some RealtimeSession, message: any RealtimeEntitySource, messageDigest: String, feed name: String, source: String,
        options: RealtimeOptions
    ) throws -> RealtimeSummary {
        let p = session.dialect.placeholder
        var summary = RealtimeSummary(feed: name, source: source, headerTimestamp: message.header.timestamp)
        var feed: Int64?
        try session.query("SELECT feed FROM feeds WHERE name = \(p(1))", [.text(name)]) { feed = $0.integer(0) }
        guard let feed else { throw RealtimeError.unknownFeed(name: name) }
        guard message.header.incrementality == .fullDataset else { throw RealtimeError.differentialRefused(source: source) }
        let key: [SQLArgument] = [.integer(feed), .text(source)]
        var lastDigest: String?
        try session.query("SELECT message_digest FROM realtime_sources WHERE feed = \(p(1)) AND source = \(p(2))", key) { lastDigest = $0.text(0) }
        if lastDigest == messageDigest {
            summary.unchangedMessage = true
            return summary
        }
        var stored: [String: String] = [:]
        try session.query("SELECT entity_id, digest FROM realtime_entities WHERE feed = \(p(1)) AND source = \(p(2))", key) { row in
            if let id = row.text(0) { stored[id] = row.text(1) ?? "" }
        }
        var writer = try RealtimeWriter(session: session, feed: feed, source: source, header: message.header, options: options)
        var seen = Set<String>()
        try message.forEachEntity { entity, digest in
            summary.entities += 1
            guard seen.insert(entity.id).inserted else { return summary.note("entity \(entity.id) is listed twice; the first counts") }
            if case .deleted = entity { return }
            let previous = stored.removeValue(forKey: entity.id)
            guard previous != digest else { return }
            if previous != nil { summary.rowsDeleted += try delete(session, feed: feed, source: source, entity: entity.id) }
            summary.changedEntities += 1
            try writer.write(entity, digest: digest, into: &summary)
        }
        for id in stored.keys.sorted() {
            summary.rowsDeleted += try delete(session, feed: feed, source: source, entity: id)
            summary.removedEntities += 1
        }
        for note in message.skipped { summary.note(note) }
        summary.rowsWritten += try writer.finish()
        try recordSource(session, feed: feed, source: source, digest: messageDigest, header: message.header, summary: summary, options: options)
        return summary
    }

    /// Deletes an entity's rows from every table; returns how many.
    private static func delete(_ session: some RealtimeSession, feed: Int64, source: String, entity: String) throws -> Int {
        let p = session.dialect.placeholder
        var deleted = 0
        for table in RealtimeTables.entityTables {
            deleted += try session.execute(
                "DELETE FROM \(table.name) WHERE feed = \(p(1)) AND source = \(p(2)) AND entity_id = \(p(3))", [.integer(feed), .text(source), .text(entity)])
        }
        return deleted
    }

    private static func recordSource(
        _ session: some RealtimeSession, feed: Int64, source: String, digest: String, header: RealtimeHeader, summary: RealtimeSummary,
        options: RealtimeOptions
    ) throws {
        let p = session.dialect.placeholder
        // How far a prediction can lie from its call's time on a board: its delay, and an exact_times 0
        // run's start given off the run's.
        var delays: [Int64?] = []
        try session.query(
            """
            SELECT max(arrival_delay + run_offset), max(departure_delay + run_offset), min(arrival_delay + run_offset),
                min(departure_delay + run_offset) FROM realtime_predictions
            WHERE feed = \(p(1)) AND source = \(p(2))
            """, [.integer(feed), .text(source)]
        ) { row in delays = (0 ..< 4).map { row.integer($0) } }
        let latest = delays.prefix(2).compactMap { $0 }.max()
        let earliest = delays.dropFirst(2).compactMap { $0 }.min()
        var row = RealtimeInserts(RealtimeTables.sources)
        try row.add(
            [
                .integer(feed), .text(source), .text(digest), .text(header.version), .text(header.incrementality.rawValue),
                .integer(header.timestamp), .integer(Int64(options.now.timeIntervalSince1970)), .integer(summary.entities),
                .integer(latest), .integer(earliest),
            ], session)
        try row.flush(session)
    }
}
