import GTFS

/// A `FeedMessage`'s header.
public struct RealtimeHeader: Sendable, Hashable {
    /// `gtfs_realtime_version` (`2.0`).
    public var version: String
    /// Whole state or changes.
    public var incrementality: RealtimeMessage.Incrementality
    /// When the content was created, in seconds since 1970.
    public var timestamp: Int64?

    public init(version: String = "2.0", incrementality: RealtimeMessage.Incrementality = .fullDataset, timestamp: Int64? = nil) {
        (self.version, self.incrementality, self.timestamp) = (version, incrementality, timestamp)
    }
}

/// One entity of a message.
public enum RealtimeEntity: Sendable, Hashable {
    case tripUpdate(RealtimeTripUpdate)
    case vehicle(RealtimeVehicle)
    case alert(RealtimeAlert)
    /// An entity marked `is_deleted`, by id.
    case deleted(String)

    /// The entity's id.
    public var id: String {
        switch self {
        case .tripUpdate(let update): update.entityID
        case .vehicle(let vehicle): vehicle.entityID
        case .alert(let alert): alert.entityID
        case .deleted(let id): id
        }
    }
}

/// A message whose entities are read one at a time, so that applying it takes memory for one entity, not
/// for the message's: `RealtimeFeed` (module `GTFSRealtime`) decodes protobuf bytes so;
/// ``RealtimeMessage`` is one held in memory.
public protocol RealtimeEntitySource {
    /// The message's header.
    var header: RealtimeHeader { get }
    /// A digest of the whole message: a source's message with the digest applied last writes nothing.
    var messageDigest: String { get }
    /// Calls `body` with each entity and a digest of its content (equal content, equal digest; what an
    /// unchanged entity is recognised by), in the message's order.
    /// - Throws: what `body` throws, or an error of the message's bytes.
    func forEachEntity(_ body: (RealtimeEntity, _ digest: String) throws -> Void) throws
    /// Entities the source passed over, each with why (an entity without a trip, say): counted warnings.
    var skipped: [String] { get }
}

extension RealtimeMessage: RealtimeEntitySource {
    public var header: RealtimeHeader { RealtimeHeader(version: version, incrementality: incrementality, timestamp: timestamp) }

    public func forEachEntity(_ body: (RealtimeEntity, _ digest: String) throws -> Void) throws {
        let entities = tripUpdates.map(RealtimeEntity.tripUpdate) + vehicles.map(RealtimeEntity.vehicle) + alerts.map(RealtimeEntity.alert)
            + deletedEntityIDs.map(RealtimeEntity.deleted)
        for entity in entities { try body(entity, ContentHasher.hash(String(describing: entity)) ?? "") }
    }

    public var skipped: [String] { [] }

    public var messageDigest: String { ContentHasher.hash(String(describing: self)) ?? "" }
}
