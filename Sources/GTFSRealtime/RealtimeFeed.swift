public import Foundation
import GTFS
import SwiftProtobuf
import Synchronization

/// A GTFS-Realtime `FeedMessage` read from its protobuf bytes an entity at a time: the store applies it in
/// the memory of one entity, never of the whole decoded message.
///
/// The initializer checks the message's framing (every top-level field, without decoding the entities) and
/// decodes the header; ``forEachEntity(_:)`` then decodes each `FeedEntity` from its own bytes, turns it into
/// the store-neutral values of GTFSStoreCore and passes it on with the SHA-256 of those bytes.
///
/// ```swift
/// let feed = try RealtimeFeed(data: try Data(contentsOf: url))
/// try feed.forEachEntity { entity, digest in print(entity.id, digest) }
/// print(feed.skipped)   // entities passed over, and values left out, each with why
/// ```
///
/// What is read: trip updates, vehicle positions and alerts, and entities marked `is_deleted`. An entity
/// without an id, without any of the three, or with a trip update that names no trip is passed over (see
/// ``skipped``). An enum value the definition does not know (a producer on a newer version) is left out
/// with a note where it only describes (congestion, occupancy, cause, effect, severity, stop status); where
/// it decides what the store does (a trip's or a stop's schedule relationship) the entity is passed over.
/// A `uint64` timestamp beyond the signed 64-bit range passes the entity over; an alert period's bound
/// beyond it is left open, with a note.
public struct RealtimeFeed: RealtimeEntitySource, Sendable {
    /// The largest message read by default: 32 MiB, far above what publishers serve (a city's trip updates
    /// are a few MB) and small enough that a wrong URL does not exhaust memory.
    public static let defaultMaxBytes = 32 << 20

    /// The message's header, decoded by the initializer.
    public let header: RealtimeHeader
    /// The SHA-256 of the message's bytes, as 64 lowercase hex digits.
    public let messageDigest: String
    /// How many `entity` fields the message has, counting those ``forEachEntity(_:)`` passes over.
    public let entityFieldCount: Int

    private let data: Data
    private let headerNotes: [String]
    private let notes = NoteBox()

    /// Notes of the last ``forEachEntity(_:)`` pass (of this value or of a copy: copies share them), after
    /// any about the header: each entity passed over and each value left out, with why.
    public var skipped: [String] { headerNotes + notes.all }

    /// Checks a message's framing and decodes its header.
    /// - Parameters:
    ///   - data: the bytes of one `FeedMessage`, as served.
    ///   - maxBytes: the largest message accepted; a larger one is refused before any byte is read.
    /// - Throws: ``RealtimeDecodingError`` when the message is too large, a top-level field is cut short or
    ///   garbled, or the header is missing, undecodable, without `gtfs_realtime_version`, or has an
    ///   incrementality the definition lacks or a timestamp beyond Int64.
    public init(data: Data, maxBytes: Int = RealtimeFeed.defaultMaxBytes) throws(RealtimeDecodingError) {
        guard data.count <= maxBytes else { throw .tooLarge(size: data.count, limit: maxBytes) }
        var headerFields: [WireField] = []
        var entities = 0
        var scanner = WireScanner(data)
        while let field = try scanner.nextTopLevelField() {
            if field.number == FeedField.header { headerFields.append(field) }
            if field.number == FeedField.entity { entities += 1 }
        }
        (header, headerNotes) = try Self.decodeHeader(headerFields, in: data)
        (self.data, entityFieldCount) = (data, entities)
        let hasher = ContentHasher()
        data.withUnsafeBytes { hasher.update($0) }
        messageDigest = hasher.finish() ?? ""
    }

    /// Decodes each entity in the message's order and calls `body` with it and the SHA-256 of its bytes
    /// (the same bytes give the same digest, so an unchanged entity is recognised).
    ///
    /// Entities passed over are noted in ``skipped``, which this pass starts afresh. A protobuf error in an
    /// entity throws before `body` sees it; the entities before it have been delivered, so apply a message
    /// in a transaction (the stores do) to refuse it whole.
    /// - Throws: what `body` throws, or ``RealtimeDecodingError/entity(index:offset:reason:)``.
    public func forEachEntity(_ body: (RealtimeEntity, _ digest: String) throws -> Void) throws {
        notes.reset()
        var scanner = WireScanner(data)
        var index = 0
        while let field = try scanner.nextTopLevelField() {
            guard field.number == FeedField.entity, let payload = field.payload else { continue }
            defer { index += 1 }
            let bytes = data[payload]
            let decoded: TransitRealtime_FeedEntity
            do {
                // partial: the required fields (id, trip, latitude…) are checked below, so that one entity
                // without them is passed over instead of refusing the message.
                decoded = try TransitRealtime_FeedEntity(serializedBytes: bytes, partial: true)
            } catch {
                throw RealtimeDecodingError.entity(index: index, offset: field.offset, reason: protobufErrorText(error))
            }
            var reader = EntityReader(index: index, offset: field.offset)
            let entity = reader.read(decoded)
            notes.append(reader.notes)
            if let entity { try body(entity, Self.digest(bytes)) }
        }
    }

    private static func digest(_ bytes: Data) -> String {
        let hasher = ContentHasher()
        bytes.withUnsafeBytes { hasher.update($0) }
        return hasher.finish() ?? ""
    }

    /// Merges the header's occurrences (a repeated non-repeated field merges, as protobuf reads it) and
    /// checks what the stores rely on.
    private static func decodeHeader(
        _ fields: [WireField], in data: Data
    ) throws(RealtimeDecodingError) -> (RealtimeHeader, [String]) {
        guard let first = fields.first else { throw .header(offset: nil, reason: "the message has no header (field 1)") }
        var header = TransitRealtime_FeedHeader()
        for field in fields {
            guard let payload = field.payload else { continue }
            do {
                try header.merge(serializedBytes: data[payload], partial: true)
            } catch {
                throw .header(offset: field.offset, reason: protobufErrorText(error))
            }
        }
        let fail = { (reason: String) in RealtimeDecodingError.header(offset: first.offset, reason: reason) }
        guard header.hasGtfsRealtimeVersion else { throw fail("no gtfs_realtime_version") }
        // An unknown incrementality decides whether entities missing from the message are deleted: refused
        // rather than guessed.
        if let unknown = unknownEnumValue(field: 2, in: header) { throw fail("incrementality \(unknown) is not a known value") }
        var timestamp: Int64?
        if header.hasTimestamp {
            guard let seconds = Int64(exactly: header.timestamp) else { throw fail("timestamp \(header.timestamp) is beyond Int64") }
            timestamp = seconds
        }
        let incrementality: RealtimeMessage.Incrementality = header.incrementality == .differential ? .differential : .fullDataset
        var notes: [String] = []
        if fields.count > 1 { notes.append("the header is given \(fields.count) times; merged") }
        return (RealtimeHeader(version: header.gtfsRealtimeVersion, incrementality: incrementality, timestamp: timestamp), notes)
    }
}

/// Why a message was refused.
public enum RealtimeDecodingError: Error, CustomStringConvertible, Sendable, Hashable {
    /// The message is larger than the limit it was read with; nothing was decoded.
    case tooLarge(size: Int, limit: Int)
    /// A top-level field is cut short or garbled at `offset` (counted from the message's first byte).
    case malformed(offset: Int, reason: String)
    /// The header is missing (`offset` `nil`), undecodable or incomplete.
    case header(offset: Int?, reason: String)
    /// An entity does not decode: the `index`th `entity` field (from 0), whose tag is at byte `offset`.
    case entity(index: Int, offset: Int, reason: String)

    /// One line: what is wrong and where, never the bytes themselves.
    public var description: String {
        switch self {
        case .tooLarge(let size, let limit): "message is \(size) bytes, more than the \(limit) allowed"
        case .malformed(let offset, let reason): "bytes \(offset)…: \(reason)"
        case .header(nil, let reason): "header: \(reason)"
        case .header(let offset?, let reason): "header (at byte \(offset)): \(reason)"
        case .entity(let index, let offset, let reason): "entity \(index) (at byte \(offset)): \(reason)"
        }
    }
}

/// The field numbers of `FeedMessage`.
enum FeedField {
    static let header: UInt64 = 1
    static let entity: UInt64 = 2
}

extension WireScanner {
    /// The next top-level field of a `FeedMessage`, its framing checked; `nil` at the end.
    mutating func nextTopLevelField() throws(RealtimeDecodingError) -> WireField? {
        let field: WireField?
        do {
            field = try next()
        } catch {
            throw .malformed(offset: error.offset, reason: error.reason)
        }
        guard let field else { return nil }
        if field.number == FeedField.header || field.number == FeedField.entity, field.payload == nil {
            let name = field.number == FeedField.header ? "header" : "entity"
            throw .malformed(offset: field.offset, reason: "field \(field.number) (\(name)) has wire type \(field.wireType), not length-delimited")
        }
        return field
    }
}

/// Notes gathered during a pass over entities: read after the pass, so a reference shared by the value's
/// copies.
final class NoteBox: Sendable {
    private let notes = Mutex<[String]>([])

    var all: [String] { notes.withLock { $0 } }

    func reset() { notes.withLock { $0.removeAll() } }

    func append(_ more: [String]) {
        guard !more.isEmpty else { return }
        notes.withLock { $0.append(contentsOf: more) }
    }
}

/// A protobuf error in words.
func protobufErrorText(_ error: any Error) -> String {
    switch error as? BinaryDecodingError {
    case .truncated?: "truncated: a field runs past the end"
    case .malformedProtobuf?: "not valid protobuf"
    case .invalidUTF8?: "a string is not valid UTF-8"
    case .messageDepthLimit?: "messages nested too deep"
    case .trailingGarbage?: "bytes after the end"
    case .missingRequiredFields?: "required fields missing"
    default: String(describing: error)
    }
}

/// The value of an enum field that protobuf kept as an unknown field because the definition does not list it
/// (proto2 enums are closed), or `nil` when there is none.
func unknownEnumValue(field number: UInt64, in message: some SwiftProtobuf.Message) -> Int32? {
    let unknown = message.unknownFields.data
    guard !unknown.isEmpty else { return nil }
    var scanner = WireScanner(unknown)
    var found: Int32?
    // The library wrote these bytes itself, so they are well-formed; a failure just ends the search.
    while let field = try? scanner.next() {
        if field.number == number, let value = field.varint { found = Int32(truncatingIfNeeded: value) }
    }
    return found
}
