import Foundation
import GTFS
package import GTFSRealtime

/// Writes one `FeedMessage` a few thousand entities at a time, so that neither the whole message's values
/// nor its protobuf tree is ever held: memory stays that of one chunk however many trips the window has.
///
/// Protobuf writes a message's fields in field number order, the header (1) before the entities (2), and
/// repeated fields one after the other, so a message is its header's bytes followed by each entity's. Each
/// chunk is encoded as a whole message with the same header, and written without that header's bytes (it
/// is checked to be there): the file holds exactly what encoding the whole message at once would give.
/// The file is written beside its path and renamed into place when complete.
package final class MessageFile {
    /// Entities encoded together: large enough that the header's bytes repeat rarely, small enough to
    /// keep a chunk's values and protobuf tree to a few MB.
    static let entitiesPerChunk = 2_000

    private let path: String
    private let temporaryPath: String
    private let header: RealtimeMessage
    private let headerBytes: Data
    private let handle: FileHandle
    private var pending: [RealtimeTripUpdate] = []
    private var bytesWritten: Int64 = 0
    private var isOpen = true
    private var finished = false

    /// Creates the file beside `path` (and `path`'s folder when missing) and writes the header.
    /// - Throws: when the file cannot be created or written.
    package init(path: String, timestamp: Int64) throws {
        header = RealtimeMessage(version: "2.0", incrementality: .fullDataset, timestamp: timestamp)
        headerBytes = try header.serializedData()
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        (self.path, temporaryPath) = (path, path + ".partial-\(getpid())")
        guard FileManager.default.createFile(atPath: temporaryPath, contents: nil) else { throw SyntheticFeedError(path: temporaryPath, message: "cannot create") }
        handle = try FileHandle(forWritingTo: URL(fileURLWithPath: temporaryPath))
        try write(headerBytes)
    }

    deinit {
        // A run that failed leaves no half-written file behind.
        guard !finished else { return }
        if isOpen { try? handle.close() }
        try? FileManager.default.removeItem(atPath: temporaryPath)
    }

    /// Adds an entity; a full chunk is encoded and written.
    package func append(_ update: RealtimeTripUpdate) throws {
        pending.append(update)
        if pending.count >= Self.entitiesPerChunk { try flush() }
    }

    /// Writes what is pending, closes the file and renames it into place.
    /// - Returns: the file's size in bytes.
    package func finish() throws -> Int64 {
        try flush()
        isOpen = false
        try handle.close()
        guard rename(temporaryPath, path) == 0 else { throw SyntheticFeedError(path: temporaryPath, message: "cannot rename to \(path): \(String(cString: strerror(errno)))") }
        finished = true
        return bytesWritten
    }

    private func flush() throws {
        guard !pending.isEmpty else { return }
        var message = header
        message.tripUpdates = pending
        let bytes = try message.serializedData()
        guard bytes.starts(with: headerBytes) else { throw SyntheticFeedError(path: path, message: "the encoder did not write the header first; cannot write in chunks") }
        try write(bytes.dropFirst(headerBytes.count))
        pending.removeAll(keepingCapacity: true)
    }

    private func write(_ bytes: Data) throws {
        try handle.write(contentsOf: bytes)
        bytesWritten += Int64(bytes.count)
    }
}
