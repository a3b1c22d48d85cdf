/// Bytes kept in memory: an archive built for a test, an entry deflated before its header is written.
package final class MemorySink: OffsetSink {
    /// Everything written so far.
    package private(set) var bytes: [UInt8] = []

    /// An empty sink.
    package init() {}

    package var offset: Int64 { Int64(bytes.count) }

    package func write(_ bytes: UnsafeRawBufferPointer) throws {
        self.bytes.append(contentsOf: bytes)
    }

    package func close() throws {}
}
