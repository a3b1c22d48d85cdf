import CZlib

/// The content of one zip entry: counted, checksummed with zlib's `crc32`, and deflated into the archive.
final class ZipEntrySink: ByteSink {
    /// The CRC-32 of the bytes written so far.
    var crc32: UInt32 { UInt32(truncatingIfNeeded: crc) }
    /// Uncompressed bytes written so far.
    private(set) var uncompressedCount: Int64 = 0
    /// Compressed bytes handed to the archive so far.
    var compressedCount: Int64 { deflate.compressedCount }

    private let deflate: DeflateStream
    private var crc: UInt = 0

    init(deflate: DeflateStream) {
        self.deflate = deflate
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        var offset = 0
        while offset < bytes.count {
            let slice = min(bytes.count - offset, 1 << 30)
            crc = CZlib.crc32(crc, (base + offset).assumingMemoryBound(to: Bytef.self), UInt32(slice))
            offset += slice
        }
        uncompressedCount += Int64(bytes.count)
        try deflate.write(bytes)
    }

    /// Ends the deflate stream.
    func finish() throws {
        try deflate.finish()
    }
}
