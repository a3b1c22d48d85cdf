public import Foundation

/// What applying one realtime message did.
public struct RealtimeSummary: Sendable, Hashable {
    /// The feed and the source the message came from.
    public var feed: String, source: String
    /// The header's timestamp, in seconds since 1970.
    public var headerTimestamp: Int64?
    /// Whether the message was the one applied last from this source, byte for byte: nothing was written.
    public var unchangedMessage: Bool
    /// The message's entities, and how many of them differ from what the source said before.
    public var entities: Int, changedEntities: Int
    /// The entities the source no longer lists, deleted with their rows.
    public var removedEntities: Int
    /// Trip updates whose trip instance was found in the timetable (or added), and those not found.
    public var matchedTrips: Int, unmatchedTrips: Int
    /// Trip updates older than the largest age allowed: stored, without predictions.
    public var staleTrips: Int
    /// Stop time updates that matched no stop of their trip.
    public var unmatchedStopTimeUpdates: Int
    /// Rows written and deleted, over every realtime table.
    public var rowsWritten: Int, rowsDeleted: Int
    /// Why entities were passed over (at most ``RealtimeSummary/maxNotes``), and how many were.
    public var notes: [String]
    public var noteCount: Int

    /// The most notes a summary keeps: a broken feed would otherwise fill memory with them.
    public static let maxNotes = 20

    init(feed: String, source: String, headerTimestamp: Int64?) {
        (self.feed, self.source, self.headerTimestamp, unchangedMessage) = (feed, source, headerTimestamp, false)
        (entities, changedEntities, removedEntities, matchedTrips, unmatchedTrips, staleTrips) = (0, 0, 0, 0, 0, 0)
        (unmatchedStopTimeUpdates, rowsWritten, rowsDeleted, notes, noteCount) = (0, 0, 0, [], 0)
    }

    mutating func note(_ text: String) {
        noteCount += 1
        if notes.count < Self.maxNotes { notes.append(text) }
    }

    /// One line: `vbb-rt trips.pb: 1,204 entities, 120 changed, 3 removed; 1,190 trips matched, 14 not found; 9,812 rows written`.
    public var line: String {
        guard !unchangedMessage else { return "\(feed) \(source): unchanged, nothing written" }
        let n = Format.count
        var parts = ["\(n(entities)) entities, \(n(changedEntities)) changed, \(n(removedEntities)) removed"]
        if matchedTrips + unmatchedTrips > 0 { parts.append("\(n(matchedTrips)) trips matched, \(n(unmatchedTrips)) not found") }
        if staleTrips > 0 { parts.append("\(n(staleTrips)) stale") }
        if unmatchedStopTimeUpdates > 0 { parts.append("\(n(unmatchedStopTimeUpdates)) stop time updates matched no stop") }
        parts.append("\(n(rowsWritten)) rows written, \(n(rowsDeleted)) deleted")
        if noteCount > 0 { parts.append("\(n(noteCount)) passed over") }
        return "\(feed) \(source): " + parts.joined(separator: "; ")
    }
}

/// How old a realtime prediction may be to count, and the instant its age counts to: when a message is
/// applied (an older trip update makes no predictions) and when a board is read (an older prediction
/// shows the timetable's time, status ``RealtimeStatus/scheduled``).
public struct RealtimeOptions: Sendable, Hashable {
    /// Trip updates older than this (by their timestamp, else the header's) make no predictions.
    public var maxAge: TimeInterval
    /// The instant ages count to: now, unless a test or a replay says otherwise.
    public var now: Date

    /// The largest age by default: 10 minutes.
    public static let defaultMaxAge: TimeInterval = 600

    public init(maxAge: TimeInterval = RealtimeOptions.defaultMaxAge, now: Date = Date()) { (self.maxAge, self.now) = (maxAge, now) }
}

/// Why a realtime message was not applied.
public enum RealtimeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A `DIFFERENTIAL` message: refused, since the specification has not settled what one means (which
    /// fields an entity's update replaces, how a stop time update is removed) and a guess would corrupt
    /// the state that a full message restores.
    case differentialRefused(source: String)
    /// The store holds no feed of that name.
    case unknownFeed(name: String)

    public var description: String {
        switch self {
        case .differentialRefused(let source):
            "\(source): DIFFERENTIAL messages are refused (the specification leaves their meaning unsettled); ask the publisher for FULL_DATASET"
        case .unknownFeed(let name): "no feed named \(name): import its static feed first"
        }
    }
}
