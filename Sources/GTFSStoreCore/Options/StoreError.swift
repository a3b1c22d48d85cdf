public import Foundation
import GTFS

/// Why a GTFS store cannot be opened, or a question cannot be asked of it. Other failures (a directory
/// that cannot be written, a full disk) are GRDB's `DatabaseError`s.
public enum StoreError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    /// The database was written by a newer version of the schema: it holds the migrations `found`,
    /// which this build does not know. It is left untouched.
    ///
    /// - Parameters:
    ///   - found: the unknown migration identifiers, sorted.
    ///   - supported: the migrations this build knows, in order (`v1`, `v2`, …: one per schema version up to
    ///     the store's schema version).
    case newerSchema(found: [String], supported: [String])

    /// The file is not a GTFS store: not an SQLite database at all, or one that belongs to something
    /// else (other tables, another application id). It is left untouched.
    ///
    /// - Parameters:
    ///   - path: the file.
    ///   - reason: what was found instead, e.g. `it is not an SQLite database`.
    case notAGTFSDatabase(path: String, reason: String)

    /// The store was opened read-only, and its schema is older than this build's: it needs its migrations,
    /// which only a writable open applies.
    ///
    /// - Parameters:
    ///   - path: the file.
    ///   - missing: the migrations it lacks, in order.
    case needsMigration(path: String, missing: [String])

    /// A name search (`stops(named:feed:limit:)`) of more words than
    /// the store's `maxNameWords`: every word is a term the name index looks up, so their number bounds
    /// the search's memory.
    ///
    /// - Parameters:
    ///   - count: the words given.
    ///   - limit: the most accepted.
    case tooManyWords(count: Int, limit: Int)
    /// A read named a feed the store does not hold.
    /// - Parameters:
    ///   - name: the feed asked for.
    ///   - feeds: the names of the feeds the store holds, in order.
    case unknownFeed(name: String, feeds: [String])
    /// A board named a stop the feed does not hold (neither a stop nor a station of that id).
    /// - Parameters:
    ///   - id: the `stop_id` asked for.
    ///   - feed: the feed.
    case unknownStop(id: String, feed: String)

    /// One line naming the problem.
    public var description: String {
        switch self {
        case .newerSchema(let found, let supported):
            "the database was written by a newer GTFS schema (unknown migrations: \(found.joined(separator: ", "));"
                + " this version knows \(supported.joined(separator: ", ")))"
        case .notAGTFSDatabase(let path, let reason):
            "\(path): not a GTFS database: \(reason)"
        case .needsMigration(let path, let missing):
            "\(path): the store needs migrations \(missing.joined(separator: ", ")) to this version's schema; "
                + "open it once for writing (an import does it)"
        case .tooManyWords(let count, let limit):
            "a name search of \(count) words; at most \(limit) are looked for"
        case .unknownFeed(let name, let feeds):
            "no feed \"\(GTFSError.displayable(name))\"; the store holds "
                + (feeds.isEmpty ? "none (gtfs-import writes one)" : feeds.map { GTFSError.displayable($0) }.joined(separator: ", "))
        case .unknownStop(let id, let feed):
            "no stop \"\(GTFSError.displayable(id))\" in feed \(GTFSError.displayable(feed))"
        }
    }

    /// The same text as ``description``.
    public var errorDescription: String? { description }
}
