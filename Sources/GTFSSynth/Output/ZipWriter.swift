/// Writes a zip archive as a stream: each entry is deflated straight into the file, its local header
/// carrying the data-descriptor flag (bit 3) and the CRC-32 and sizes following the data; the central
/// directory is written at the end. ZIP64 records are added only where a size or offset needs them.
///
/// Every timestamp is the same fixed date, so equal content gives an identical archive.
final class ZipWriter {
    /// What the central directory needs about one entry.
    private struct Record {
        let name: [UInt8]
        let crc32: UInt32
        let compressedSize: UInt64
        let uncompressedSize: UInt64
        let localHeaderOffset: UInt64
    }

    /// The archive's path.
    let path: String
    private let file: FileSink
    private let level: Int32
    private var records: [Record] = []
    private var current: (entry: ZipEntrySink, name: [UInt8], offset: UInt64)?

    private static let dataDescriptorFlag: UInt16 = 0x0008
    private static let deflated: UInt16 = 8
    /// 2025-01-01 00:00:00 in MS-DOS format.
    private static let dosTime: UInt16 = 0
    private static let dosDate: UInt16 = (2025 - 1980) << 9 | 1 << 5 | 1
    private static let limit32: UInt64 = 0xFFFF_FFFF

    /// Creates (or truncates) the archive.
    ///
    /// - Parameters:
    ///   - path: the zip file.
    ///   - level: zlib's compression level for every entry.
    /// - Throws: ``SyntheticFeedError`` when the file cannot be created.
    init(path: String, level: Int32) throws {
        self.path = path
        self.level = level
        file = try FileSink(path: path)
    }

    /// Writes an entry's local header and returns the sink its content goes to; call ``endEntry()``
    /// after the content.
    /// - Throws: ``SyntheticFeedError`` when writing fails or an entry is still open.
    func beginEntry(name: String) throws -> ZipEntrySink {
        guard current == nil else { throw SyntheticFeedError(path: path, message: "an entry is still open") }
        let nameBytes = Array(name.utf8)
        let offset = UInt64(file.offset)
        var header = LittleEndianBytes()
        header.u32(0x0403_4B50)
        header.u16(20)  // version needed: 2.0 (deflate)
        header.u16(Self.dataDescriptorFlag)
        header.u16(Self.deflated)
        header.u16(Self.dosTime)
        header.u16(Self.dosDate)
        header.u32(0)  // CRC-32, compressed and uncompressed size: in the data descriptor
        header.u32(0)
        header.u32(0)
        header.u16(UInt16(nameBytes.count))
        header.u16(0)  // no extra field
        header.append(nameBytes)
        try file.write(header.bytes)
        let entry = try ZipEntrySink(
            deflate: DeflateStream(container: .raw, level: level, target: file, name: path + ":" + name))
        current = (entry, nameBytes, offset)
        return entry
    }

    /// Ends the open entry: the rest of its deflate stream, then its data descriptor.
    /// - Throws: ``SyntheticFeedError`` when compressing or writing fails.
    func endEntry() throws {
        guard let (entry, name, offset) = current else { return }
        current = nil
        try entry.finish()
        let compressed = UInt64(entry.compressedCount)
        let uncompressed = UInt64(entry.uncompressedCount)
        var descriptor = LittleEndianBytes()
        descriptor.u32(0x0807_4B50)
        descriptor.u32(entry.crc32)
        if compressed >= Self.limit32 || uncompressed >= Self.limit32 {
            descriptor.u64(compressed)
            descriptor.u64(uncompressed)
        } else {
            descriptor.u32(UInt32(compressed))
            descriptor.u32(UInt32(uncompressed))
        }
        try file.write(descriptor.bytes)
        records.append(
            Record(
                name: name, crc32: entry.crc32, compressedSize: compressed, uncompressedSize: uncompressed,
                localHeaderOffset: offset))
    }

    /// Writes the central directory and the end records, and closes the file.
    /// - Throws: ``SyntheticFeedError`` when writing or closing fails.
    func finish() throws {
        try endEntry()
        let directoryOffset = UInt64(file.offset)
        var directory = LittleEndianBytes()
        for record in records {
            var extra = LittleEndianBytes()
            if record.uncompressedSize >= Self.limit32 { extra.u64(record.uncompressedSize) }
            if record.compressedSize >= Self.limit32 { extra.u64(record.compressedSize) }
            if record.localHeaderOffset >= Self.limit32 { extra.u64(record.localHeaderOffset) }
            let zip64 = !extra.bytes.isEmpty
            directory.u32(0x0201_4B50)
            directory.u16(zip64 ? 0x032D : 0x0314)  // made by: Unix, zip 4.5 or 2.0
            directory.u16(zip64 ? 45 : 20)  // version needed
            directory.u16(Self.dataDescriptorFlag)
            directory.u16(Self.deflated)
            directory.u16(Self.dosTime)
            directory.u16(Self.dosDate)
            directory.u32(record.crc32)
            directory.u32(UInt32(min(record.compressedSize, Self.limit32)))
            directory.u32(UInt32(min(record.uncompressedSize, Self.limit32)))
            directory.u16(UInt16(record.name.count))
            directory.u16(zip64 ? UInt16(4 + extra.bytes.count) : 0)
            directory.u16(0)  // comment
            directory.u16(0)  // disk
            directory.u16(1)  // internal attributes: text
            directory.u32(0o100644 << 16)  // external attributes: a regular file, rw-r--r--
            directory.u32(UInt32(min(record.localHeaderOffset, Self.limit32)))
            directory.append(record.name)
            if zip64 {
                directory.u16(0x0001)
                directory.u16(UInt16(extra.bytes.count))
                directory.append(extra.bytes)
            }
        }
        try file.write(directory.bytes)
        let directorySize = UInt64(directory.bytes.count)
        let count = UInt64(records.count)
        var end = LittleEndianBytes()
        if count >= 0xFFFF || directorySize >= Self.limit32 || directoryOffset >= Self.limit32 {
            let recordOffset = directoryOffset + directorySize
            end.u32(0x0606_4B50)  // ZIP64 end of central directory record
            end.u64(44)  // its size after this field
            end.u16(0x032D)
            end.u16(45)
            end.u32(0)
            end.u32(0)
            end.u64(count)
            end.u64(count)
            end.u64(directorySize)
            end.u64(directoryOffset)
            end.u32(0x0706_4B50)  // ZIP64 locator
            end.u32(0)
            end.u64(recordOffset)
            end.u32(1)
        }
        end.u32(0x0605_4B50)
        end.u16(0)
        end.u16(0)
        end.u16(UInt16(min(count, 0xFFFF)))
        end.u16(UInt16(min(count, 0xFFFF)))
        end.u32(UInt32(min(directorySize, Self.limit32)))
        end.u32(UInt32(min(directoryOffset, Self.limit32)))
        end.u16(0)  // comment
        try file.write(end.bytes)
        try file.close()
    }
}

/// A growing little-endian byte string for zip headers.
struct LittleEndianBytes {
    private(set) var bytes: [UInt8] = []

    mutating func u16(_ value: UInt16) {
        bytes.append(UInt8(truncatingIfNeeded: value))
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
    }

    mutating func u32(_ value: UInt32) {
        u16(UInt16(truncatingIfNeeded: value))
        u16(UInt16(truncatingIfNeeded: value >> 16))
    }

    mutating func u64(_ value: UInt64) {
        u32(UInt32(truncatingIfNeeded: value))
        u32(UInt32(truncatingIfNeeded: value >> 32))
    }

    mutating func append(_ more: [UInt8]) { bytes.append(contentsOf: more) }
}
