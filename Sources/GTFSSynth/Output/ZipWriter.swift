import CZlib

/// Writes a zip archive, to a file or to memory, in one pass: the package's one zip writer, for the
/// synthetic feeds and for the archives the tests read.
///
/// An entry is streamed (``beginEntry(name:)``: deflated straight into the archive, its local header
/// carrying the data-descriptor flag, bit 3, and its CRC-32 and sizes following the data) or added whole
/// (``add(_:_:method:)``: stored or deflated, its CRC-32 and sizes in its local header). The central
/// directory is written at the end. Every timestamp is the same fixed date, so equal content gives an
/// identical archive.
package final class ZipWriter {
    /// How an entry's bytes are kept.
    package enum Method: Sendable {
        /// As they are (method 0).
        case stored
        /// Raw deflate (method 8).
        case deflated
    }

    /// When the archive carries ZIP64 fields and end records.
    package enum ZIP64: Sendable {
        /// Where a size, an offset or the count needs them: 4 GiB and more, 65,535 entries and more.
        case whenNeeded
        /// For every entry and the archive, as some large-feed writers do, whatever the sizes.
        case always
        /// Never, as 32-bit writers do: a count above 65,535 is capped (and a size past 4 GiB is not
        /// written correctly). Only for archives that test a reader.
        case never
    }

    /// What the central directory needs about one entry.
    struct Record {
        let name: [UInt8]
        let method: Method
        let streamed: Bool
        let crc32: UInt32
        let compressedSize: UInt64
        let uncompressedSize: UInt64
        let localHeaderOffset: UInt64
    }

    /// The archive's path, for messages; empty in memory.
    let path: String
    let target: any OffsetSink
    private let level: Int32
    let zip64: ZIP64
    var records: [Record] = []
    private var current: (entry: ZipEntrySink, name: [UInt8], offset: UInt64)?

    static let dataDescriptorFlag: UInt16 = 0x0008
    /// 2025-01-01 00:00:00 in MS-DOS format.
    static let dosTime: UInt16 = 0
    static let dosDate: UInt16 = (2025 - 1980) << 9 | 1 << 5 | 1
    static let limit32: UInt64 = 0xFFFF_FFFF

    /// Creates (or truncates) the archive file.
    ///
    /// - Parameters:
    ///   - path: the zip file.
    ///   - level: zlib's compression level for every deflated entry.
    ///   - zip64: when ZIP64 records are written.
    /// - Throws: ``SyntheticFeedError`` when the file cannot be created.
    init(path: String, level: Int32, zip64: ZIP64 = .whenNeeded) throws {
        self.path = path
        self.level = level
        self.zip64 = zip64
        target = try FileSink(path: path)
    }

    /// Creates an archive in memory: ``bytes`` after ``finish()``.
    package init(level: Int32 = 6, zip64: ZIP64 = .whenNeeded) {
        path = ""
        self.level = level
        self.zip64 = zip64
        target = MemorySink()
    }

    /// The archive written in memory so far (empty for a file).
    package var bytes: [UInt8] { (target as? MemorySink)?.bytes ?? [] }

    /// Writes an entry's local header and returns the sink its content goes to, deflated; call
    /// ``endEntry()`` after the content.
    /// - Throws: ``SyntheticFeedError`` when writing fails or an entry is still open.
    func beginEntry(name: String) throws -> ZipEntrySink {
        guard current == nil else { throw SyntheticFeedError(path: path, message: "an entry is still open") }
        let nameBytes = try entryName(name)
        let offset = UInt64(target.offset)
        try target.write(localHeader(nameBytes, method: .deflated, streamed: true, crc32: 0, compressed: 0, uncompressed: 0))
        let entry = try ZipEntrySink(
            deflate: DeflateStream(container: .raw, level: level, target: target, name: path + ":" + name))
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
        if zip64 == .always || (zip64 == .whenNeeded && (compressed >= Self.limit32 || uncompressed >= Self.limit32)) {
            descriptor.u64(compressed)
            descriptor.u64(uncompressed)
        } else {
            descriptor.u32(UInt32(truncatingIfNeeded: compressed))
            descriptor.u32(UInt32(truncatingIfNeeded: uncompressed))
        }
        try target.write(descriptor.bytes)
        records.append(
            Record(
                name: name, method: .deflated, streamed: true, crc32: entry.crc32, compressedSize: compressed,
                uncompressedSize: uncompressed, localHeaderOffset: offset))
    }

    /// Adds a whole entry, its CRC-32 and sizes in its local header.
    /// - Throws: ``SyntheticFeedError`` when compressing or writing fails or an entry is open.
    package func add(_ name: String, _ content: [UInt8], method: Method = .deflated) throws {
        guard current == nil else { throw SyntheticFeedError(path: path, message: "an entry is still open") }
        var data = content
        if method == .deflated {
            let memory = MemorySink()
            let deflate = try DeflateStream(container: .raw, level: level, target: memory, name: path + ":" + name)
            try deflate.write(content)
            try deflate.finish()
            data = memory.bytes
        }
        let crc = content.withUnsafeBytes { Self.crc32($0) }
        let nameBytes = try entryName(name)
        let offset = UInt64(target.offset)
        try target.write(
            localHeader(
                nameBytes, method: method, streamed: false, crc32: crc, compressed: UInt64(data.count), uncompressed: UInt64(content.count)))
        try target.write(data)
        records.append(
            Record(
                name: nameBytes, method: method, streamed: false, crc32: crc, compressedSize: UInt64(data.count),
                uncompressedSize: UInt64(content.count), localHeaderOffset: offset))
    }

    /// The bytes of an entry's name, which a header counts in 16 bits.
    private func entryName(_ name: String) throws -> [UInt8] {
        let bytes = Array(name.utf8)
        guard bytes.count <= Int(UInt16.max) else {
            throw SyntheticFeedError(path: path, message: "an entry name of \(bytes.count) bytes; a zip allows at most 65,535")
        }
        return bytes
    }

    /// zlib's CRC-32 of any number of bytes (zlib takes at most 4 GiB at a time).
    static func crc32(_ bytes: UnsafeRawBufferPointer, startingAt start: UInt = 0) -> UInt32 {
        var crc = start
        var offset = 0
        while offset < bytes.count, let base = bytes.baseAddress {
            let slice = min(bytes.count - offset, 1 << 30)
            crc = CZlib.crc32(crc, (base + offset).assumingMemoryBound(to: Bytef.self), UInt32(slice))
            offset += slice
        }
        return UInt32(truncatingIfNeeded: crc)
    }

    /// A local file header; a streamed entry's CRC-32 and sizes follow its data instead.
    private func localHeader(
        _ name: [UInt8], method: Method, streamed: Bool, crc32: UInt32, compressed: UInt64, uncompressed: UInt64
    ) -> [UInt8] {
        let large = zip64 == .always || (zip64 == .whenNeeded && !streamed && max(compressed, uncompressed) >= Self.limit32)
        var header = LittleEndianBytes()
        header.u32(0x0403_4B50)
        header.u16(large ? 45 : 20)  // version needed: 4.5 (ZIP64) or 2.0 (deflate)
        header.u16(streamed ? Self.dataDescriptorFlag : 0)
        header.u16(method.code)
        header.u16(Self.dosTime)
        header.u16(Self.dosDate)
        header.u32(crc32)
        header.u32(large ? UInt32(Self.limit32) : UInt32(truncatingIfNeeded: compressed))
        header.u32(large ? UInt32(Self.limit32) : UInt32(truncatingIfNeeded: uncompressed))
        header.u16(UInt16(name.count))
        header.u16(large ? 20 : 0)
        header.append(name)
        if large {
            header.u16(0x0001)
            header.u16(16)
            header.u64(uncompressed)
            header.u64(compressed)
        }
        return header.bytes
    }
}

extension ZipWriter.Method {
    /// The compression method's number in the headers.
    var code: UInt16 {
        switch self {
        case .stored: 0
        case .deflated: 8
        }
    }
}
