/// The content of one zip entry: counted, checksummed with zlib's `crc32`, and deflated into the archive.
final class ZipEntrySink: ByteSink {
    /// The CRC-32 of the bytes written so far.
    private(set) var crc32: UInt32 = 0
    /// Uncompressed bytes written so far.
    private(set) var uncompressedCount: Int64 = 0
    /// Compressed bytes handed to the archive so far.
    var compressedCount: Int64 { deflate.compressedCount }

    private let deflate: DeflateStream

    init(deflate: DeflateStream) {
        self.deflate = deflate
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        guard bytes.count > 0 else { return }
        crc32 = ZipWriter.crc32(bytes, startingAt: UInt(crc32))
        uncompressedCount += Int64(bytes.count)
        try deflate.write(bytes)
    }

    /// Ends the deflate stream.
    func finish() throws {
        try deflate.finish()
    }
}
