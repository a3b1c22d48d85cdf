import CLibpq

/// The data of one `COPY … FROM STDIN` in progress, sent in pieces of at least 64 KiB; ``finish()`` or
/// ``abandon(because:)`` ends it.
final class CopyStream {
    private let connection: PostgresConnection
    private let raw: OpaquePointer
    private let operation: String
    private var buffer: [UInt8] = []
    private var ended = false
    private static let sendSize = 1 << 16

    init(connection: PostgresConnection, raw: OpaquePointer, operation: String) {
        self.connection = connection
        self.raw = raw
        self.operation = operation
        buffer.reserveCapacity(2 * Self.sendSize)
    }

    /// Adds bytes, sending the buffer when it holds 64 KiB or more.
    /// - Throws: ``PostgresError`` when libpq cannot send (the connection broke).
    func send(_ bytes: [UInt8]) throws(PostgresError) {
        if buffer.isEmpty && bytes.count >= Self.sendSize { return try put(bytes) }
        buffer.append(contentsOf: bytes)
        if buffer.count >= Self.sendSize { try flush() }
    }

    /// Sends the rest and ends the COPY.
    /// - Returns: the rows the server stored.
    /// - Throws: ``PostgresError`` when the server refuses the data.
    func finish() throws(PostgresError) -> Int {
        try flush()
        ended = true
        return try connection.endCopy(raw, operation, abandoning: nil)
    }

    /// Ends the COPY so that the server stores none of it.
    func abandon(because reason: String) {
        guard !ended else { return }
        ended = true
        _ = try? connection.endCopy(raw, operation, abandoning: reason)
    }

    private func flush() throws(PostgresError) {
        guard !buffer.isEmpty else { return }
        defer { buffer.removeAll(keepingCapacity: true) }
        try put(buffer)
    }

    /// Hands bytes to libpq.
    private func put(_ bytes: [UInt8]) throws(PostgresError) {
        try bytes.withUnsafeBufferPointer { (bytes) throws(PostgresError) in try connection.putCopyData(raw, bytes, operation) }
    }
}
