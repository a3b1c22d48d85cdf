extension ZipWriter {
    /// Writes the central directory and the end records, and closes the output.
    /// - Throws: ``SyntheticFeedError`` when writing or closing fails.
    package func finish() throws {
        try endEntry()
        let directoryOffset = UInt64(target.offset)
        var directory = LittleEndianBytes()
        for record in records { directory.append(centralHeader(record)) }
        try target.write(directory.bytes)
        try target.write(endRecords(directoryOffset: directoryOffset, directorySize: UInt64(directory.bytes.count)))
        try target.close()
    }

    /// An entry's header in the central directory.
    private func centralHeader(_ record: Record) -> [UInt8] {
        var extra = LittleEndianBytes()
        let all = zip64 == .always
        if zip64 != .never {
            if all || record.uncompressedSize >= Self.limit32 { extra.u64(record.uncompressedSize) }
            if all || record.compressedSize >= Self.limit32 { extra.u64(record.compressedSize) }
            if all || record.localHeaderOffset >= Self.limit32 { extra.u64(record.localHeaderOffset) }
        }
        let large = !extra.bytes.isEmpty
        func field(_ value: UInt64) -> UInt32 { all || (large && value >= Self.limit32) ? UInt32(Self.limit32) : UInt32(truncatingIfNeeded: value) }
        var header = LittleEndianBytes()
        header.u32(0x0201_4B50)
        header.u16(large ? 0x032D : 0x0314)  // made by: Unix, zip 4.5 or 2.0
        header.u16(large ? 45 : 20)  // version needed
        header.u16(record.streamed ? Self.dataDescriptorFlag : 0)
        header.u16(record.method.code)
        header.u16(Self.dosTime)
        header.u16(Self.dosDate)
        header.u32(record.crc32)
        header.u32(field(record.compressedSize))
        header.u32(field(record.uncompressedSize))
        header.u16(UInt16(record.name.count))
        header.u16(large ? UInt16(4 + extra.bytes.count) : 0)
        header.u16(0)  // comment
        header.u16(0)  // disk
        header.u16(1)  // internal attributes: text
        header.u32(0o100644 << 16)  // external attributes: a regular file, rw-r--r--
        header.u32(field(record.localHeaderOffset))
        header.append(record.name)
        if large {
            header.u16(0x0001)
            header.u16(UInt16(extra.bytes.count))
            header.append(extra.bytes)
        }
        return header.bytes
    }

    /// The ZIP64 end record and locator where they are wanted, then the end of central directory record.
    private func endRecords(directoryOffset: UInt64, directorySize: UInt64) -> [UInt8] {
        let count = UInt64(records.count)
        let large =
            switch zip64 {
            case .always: true
            case .whenNeeded: count >= 0xFFFF || directorySize >= Self.limit32 || directoryOffset >= Self.limit32
            case .never: false
            }
        var end = LittleEndianBytes()
        if large {
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
        // With ZIP64 always, the 32-bit fields all say "see the ZIP64 record", as such writers do.
        let all = zip64 == .always
        end.u32(0x0605_4B50)
        end.u16(0)
        end.u16(0)
        end.u16(all ? 0xFFFF : UInt16(min(count, 0xFFFF)))
        end.u16(all ? 0xFFFF : UInt16(min(count, 0xFFFF)))
        end.u32(all ? UInt32(Self.limit32) : UInt32(min(directorySize, Self.limit32)))
        end.u32(all ? UInt32(Self.limit32) : UInt32(min(directoryOffset, Self.limit32)))
        end.u16(0)  // comment
        return end.bytes
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
