import CZlib

/// Writes small zip archives for tests: stored or deflated entries, optionally with ZIP64 records.
public struct ZipWriter {
    /// One file of the archive.
    public struct Entry {
        let name: String
        let content: [UInt8]
        let deflate: Bool
    }

    /// The files, in order.
    public var entries: [Entry] = []
    /// Write ZIP64 extra fields and end records, as large-feed writers do.
    public var zip64 = false

    /// An empty archive.
    public init() {}

    /// Adds a file holding `text`, deflated or stored.
    public mutating func add(_ name: String, _ text: String, deflate: Bool = true) {
        entries.append(Entry(name: name, content: Array(text.utf8), deflate: deflate))
    }

    /// The archive's bytes.
    public func archive() -> [UInt8] {
        var out: [UInt8] = []
        var central: [UInt8] = []
        for entry in entries {
            let offset = out.count
            let data = entry.deflate ? Self.rawDeflate(entry.content) : entry.content
            let crc = entry.content.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, UInt32($0.count))) }
            let name = Array(entry.name.utf8)
            var extra: [UInt8] = []
            if zip64 {
                extra = Self.le16(0x0001) + Self.le16(24) + Self.le64(UInt64(entry.content.count)) + Self.le64(UInt64(data.count))
                    + Self.le64(UInt64(offset))
            }
            let small32: (Int) -> UInt32 = { zip64 ? 0xFFFF_FFFF : UInt32($0) }
            out += Self.le32(0x0403_4B50) + Self.le16(zip64 ? 45 : 20) + Self.le16(0) + Self.le16(entry.deflate ? 8 : 0)
            out += Self.le16(0) + Self.le16(0) + Self.le32(crc) + Self.le32(small32(data.count)) + Self.le32(small32(entry.content.count))
            out += Self.le16(UInt16(name.count)) + Self.le16(UInt16(extra.count)) + name + extra + data
            central += Self.le32(0x0201_4B50) + Self.le16(45) + Self.le16(zip64 ? 45 : 20) + Self.le16(0) + Self.le16(entry.deflate ? 8 : 0)
            central += Self.le16(0) + Self.le16(0) + Self.le32(crc) + Self.le32(small32(data.count)) + Self.le32(small32(entry.content.count))
            central += Self.le16(UInt16(name.count)) + Self.le16(UInt16(extra.count)) + Self.le16(0) + Self.le16(0) + Self.le16(0)
            central += Self.le32(0) + Self.le32(small32(offset)) + name + extra
        }
        let centralOffset = out.count
        out += central
        if zip64 {
            let recordOffset = out.count
            out += Self.le32(0x0606_4B50) + Self.le64(44) + Self.le16(45) + Self.le16(45) + Self.le32(0) + Self.le32(0)
            out += Self.le64(UInt64(entries.count)) + Self.le64(UInt64(entries.count)) + Self.le64(UInt64(central.count))
            out += Self.le64(UInt64(centralOffset))
            out += Self.le32(0x0706_4B50) + Self.le32(0) + Self.le64(UInt64(recordOffset)) + Self.le32(1)
            out += Self.le32(0x0605_4B50) + Self.le16(0) + Self.le16(0) + Self.le16(0xFFFF) + Self.le16(0xFFFF)
            out += Self.le32(0xFFFF_FFFF) + Self.le32(0xFFFF_FFFF) + Self.le16(0)
        } else {
            // More than 65,535 entries without ZIP64: the count capped, as some writers cap it.
            let count = UInt16(clamping: entries.count)
            out += Self.le32(0x0605_4B50) + Self.le16(0) + Self.le16(0) + Self.le16(count) + Self.le16(count)
            out += Self.le32(UInt32(central.count)) + Self.le32(UInt32(centralOffset)) + Self.le16(0)
        }
        return out
    }

    static func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
    static func le32(_ value: UInt32) -> [UInt8] { le16(UInt16(value & 0xFFFF)) + le16(UInt16(value >> 16)) }
    static func le64(_ value: UInt64) -> [UInt8] { le32(UInt32(value & 0xFFFF_FFFF)) + le32(UInt32(value >> 32)) }

    static func rawDeflate(_ input: [UInt8]) -> [UInt8] { Deflate.raw(input) }
}
