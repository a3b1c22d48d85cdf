/// Raw deflate data (RFC 1951, as stored in zip entries) inflated as a stream through zlib.
///
/// Wraps the source of the compressed bytes and produces the inflated bytes, so a ``Reader`` can
/// read a zip entry without extracting it:
///
/// ```swift
/// let entry = try DeflateSource(compressed: MemorySource(deflatedBytes), name: "feed.zip:stops.txt")
/// try Reader(source: entry).forEachLine { line in … }
/// ```
public final class DeflateSource: ByteSource {
    /// The name used in errors.
    public let name: String
    /// Unknown in advance: the inflated size is not known to the stream.
    public var byteCount: Int64? { nil }
    private let compressed: any ByteSource
    private let inflater: Inflater
    /// Compressed bytes read so far.
    public private(set) var compressedBytesRead: Int64 = 0

    /// Creates an inflating source.
    ///
    /// - Parameters:
    ///   - compressed: the raw deflate bytes.
    ///   - name: the name for error messages.
    ///   - readSize: compressed bytes requested per read.
    /// - Throws: ``ReaderError/corruptCompressedData(source:format:offset:reason:)`` when zlib cannot start.
    public init(compressed: any ByteSource, name: String, readSize: Int = 64 * 1024) throws {
        self.name = name
        self.compressed = compressed
        inflater = try Inflater(
            format: .rawDeflate, prefix: UnsafeRawBufferPointer(start: nil, count: 0), readSize: readSize, sourceName: name)
    }

    /// Inflates the next bytes.
    ///
    /// - Parameter buffer: the destination for inflated bytes.
    /// - Returns: the byte count, `0` at the end of the deflate stream.
    /// - Throws: ``ReaderError/corruptCompressedData(source:format:offset:reason:)`` or
    ///   ``ReaderError/truncatedCompressedData(source:format:offset:)``.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        try inflater.inflate(into: buffer, from: compressed, compressedBytesRead: &compressedBytesRead)
    }
}
