import Platform

/// The table of contents of a zip file, read from its central directory (ZIP64 included).
///
/// Entries are read one at a time as streams (``ZipEntrySource``): nothing is extracted to disk.
final class ZipArchive {
    /// One file in the archive.
    struct Entry {
        let name: String
        let method: UInt16
        let flags: UInt16
        let crc32: UInt32
        let compressedSize: Int64
        let uncompressedSize: Int64
        let localHeaderOffset: Int64

        var isDirectory: Bool { name.hasSuffix("/") }
    }

    let path: String
    let descriptor: Int32
    let size: Int64
    private(set) var entries: [Entry] = []

    /// Opens a zip file and reads its central directory.
    ///
    /// - Throws: ``GTFSError`` (`unreadable`) naming the path when the file cannot be read or is not a valid zip.
    init(path: String) throws {
        self.path = path
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ZipArchive.systemFailure(path, "open") }
        descriptor = fd
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let failure = ZipArchive.systemFailure(path, "stat")
            close(fd)
            throw failure
        }
        size = Int64(info.st_size)
        do {
            entries = try readCentralDirectory()
        } catch {
            close(fd)
            throw error
        }
    }

    deinit { close(descriptor) }

    static func failure(_ path: String, _ message: String) -> GTFSError {
        GTFSError(.unreadable, file: path, message: message)
    }

    /// The failure of the system call just made: `cannot read: Input/output error (errno 5)`.
    static func systemFailure(_ path: String, _ operation: String) -> GTFSError {
        let code = errno
        return failure(path, "cannot \(operation): \(System.message(forErrno: code)) (errno \(code))")
    }

    /// Reads exactly `count` bytes at `offset`.
    func read(at offset: Int64, count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = bytes.withUnsafeMutableBytes { buffer in
                pread(descriptor, buffer.baseAddress.map { $0 + done }, count - done, off_t(offset) + off_t(done))
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw Self.systemFailure(path, "read")
            }
            if n == 0 { throw Self.failure(path, "is truncated: expected \(count) bytes at offset \(offset)") }
            done += n
        }
        return bytes
    }

    /// Where an entry's compressed data starts (after its local header).
    ///
    /// - Throws: ``GTFSError`` when the local header is missing or the data would run past the end of the file.
    func dataOffset(of entry: Entry) throws -> Int64 {
        let header = try read(at: entry.localHeaderOffset, count: 30)
        guard header.le32(0) == 0x0403_4B50 else {
            throw Self.failure(path, "entry \(entry.name): no local file header at offset \(entry.localHeaderOffset)")
        }
        // The offset is at most `size - 30` (checked when the directory was read): no overflow below.
        let offset = entry.localHeaderOffset + 30 + Int64(header.le16(26)) + Int64(header.le16(28))
        guard offset <= size, entry.compressedSize <= size - offset else {
            throw Self.failure(path, "entry \(entry.name): its \(entry.compressedSize) compressed bytes run past the end of the file")
        }
        return offset
    }

    // MARK: - Central directory

    /// The most entries read from a directory: more than any feed holds, few enough that their table stays small.
    static let maxEntries = 65_535
    /// The largest central directory read, in bytes (read whole into memory).
    static let maxDirectorySize = 4 << 20

    /// The size of a central directory entry without its name, extra field and comment.
    private static let directoryEntrySize = 46

    private func readCentralDirectory() throws -> [Entry] {
        // The end-of-central-directory record is within the last 64 KiB + 22 bytes.
        let tailLength = Int(min(size, 65_557))
        guard tailLength >= 22 else { throw Self.failure(path, "is not a zip file (too short)") }
        let tailStart = size - Int64(tailLength)
        let tail = try read(at: tailStart, count: tailLength)
        var eocd = -1
        var index = tailLength - 22
        while index >= 0 {
            if tail.le32(index) == 0x0605_4B50 {
                eocd = index
                break
            }
            index -= 1
        }
        guard eocd >= 0 else { throw Self.failure(path, "is not a zip file (no end of central directory)") }
        // Every value read from the file is untrusted: kept unsigned and checked against the file's size
        // before it becomes an offset or a count.
        var entryCount = UInt64(tail.le16(eocd + 10))
        var directorySize = UInt64(tail.le32(eocd + 12))
        var directoryOffset = UInt64(tail.le32(eocd + 16))
        if entryCount == 0xFFFF || directorySize == 0xFFFF_FFFF || directoryOffset == 0xFFFF_FFFF {
            // ZIP64: a locator 20 bytes before the record points at the ZIP64 end record.
            let locatorPosition = tailStart + Int64(eocd) - 20
            let locator = locatorPosition >= 0 ? try read(at: locatorPosition, count: 20) : []
            guard locator.count == 20, locator.le32(0) == 0x0706_4B50 else {
                // Exactly 65,535 entries fit the 16-bit count, and writers (Python's zipfile) then add no ZIP64
                // records: without a locator the count is what it says.
                guard directorySize != 0xFFFF_FFFF, directoryOffset != 0xFFFF_FFFF else {
                    throw Self.failure(path, "has a damaged ZIP64 locator")
                }
                return try readEntries(count: entryCount, directorySize: directorySize, directoryOffset: directoryOffset, isWhole: true)
            }
            let recordOffset = try position(locator.le64(8), length: 56, "its ZIP64 end record")
            let record = try read(at: recordOffset, count: 56)
            guard record.le32(0) == 0x0606_4B50 else { throw Self.failure(path, "has a damaged ZIP64 end record") }
            entryCount = record.le64(32)
            directorySize = record.le64(40)
            directoryOffset = record.le64(48)
        }
        return try readEntries(count: entryCount, directorySize: directorySize, directoryOffset: directoryOffset)
    }

    /// Reads the `count` entries of the central directory the end record describes, checked against the limits
    /// and the file.
    /// - Parameter isWhole: whether the entries must fill the directory to its end: a count of 65,535 with no
    ///   ZIP64 record may be a writer's cap on more entries, which would be left out without a word.
    private func readEntries(count entryCount: UInt64, directorySize: UInt64, directoryOffset: UInt64, isWhole: Bool = false) throws -> [Entry] {
        guard entryCount <= UInt64(Self.maxEntries) else {
            throw Self.failure(path, "has \(entryCount) entries; at most \(Self.maxEntries) are read")
        }
        guard directorySize <= UInt64(Self.maxDirectorySize) else {
            throw Self.failure(path, "has a central directory of \(directorySize) bytes; at most \(Self.maxDirectorySize) are read")
        }
        guard entryCount <= directorySize / UInt64(Self.directoryEntrySize) else {
            throw Self.failure(path, "has a central directory of \(directorySize) bytes, too small for \(entryCount) entries")
        }
        let start = try position(directoryOffset, length: Int64(directorySize), "its central directory")
        let directory = try read(at: start, count: Int(directorySize))
        var entries: [Entry] = []
        entries.reserveCapacity(Int(entryCount))
        var position = 0
        for _ in 0 ..< Int(entryCount) {
            let (entry, length) = try readEntry(directory, at: position, number: entries.count + 1)
            entries.append(entry)
            position += length
        }
        guard !isWhole || position == Int(directorySize) else {
            throw Self.failure(path, "has more entries than its end record counts (\(entryCount)) and no ZIP64 record to count them")
        }
        return entries
    }

    /// Reads the central directory entry at `position`; returns it and its length in the directory.
    private func readEntry(_ directory: [UInt8], at position: Int, number: Int) throws -> (Entry, Int) {
        let damaged = Self.failure(path, "has a damaged central directory (entry \(number))")
        guard directory.count - position >= Self.directoryEntrySize, directory.le32(position) == 0x0201_4B50 else { throw damaged }
        let nameLength = Int(directory.le16(position + 28))
        let extraLength = Int(directory.le16(position + 30))
        let commentLength = Int(directory.le16(position + 32))
        let length = Self.directoryEntrySize + nameLength + extraLength + commentLength
        guard directory.count - position >= length else { throw damaged }
        let nameStart = position + Self.directoryEntrySize
        let name = String(decoding: directory[nameStart ..< nameStart + nameLength], as: UTF8.self)
        var compressed = UInt64(directory.le32(position + 20))
        var uncompressed = UInt64(directory.le32(position + 24))
        var offset = UInt64(directory.le32(position + 42))
        // ZIP64 extra field: the 64-bit values, in this order, for each 32-bit field that is all ones.
        var extra = nameStart + nameLength
        let extraEnd = extra + extraLength
        while extraEnd - extra >= 4 {
            let id = directory.le16(extra)
            let fieldLength = Int(directory.le16(extra + 2))
            if id == 0x0001 {
                var field = extra + 4
                let fieldEnd = min(extraEnd, field + fieldLength)
                if uncompressed == 0xFFFF_FFFF, fieldEnd - field >= 8 {
                    uncompressed = directory.le64(field)
                    field += 8
                }
                if compressed == 0xFFFF_FFFF, fieldEnd - field >= 8 {
                    compressed = directory.le64(field)
                    field += 8
                }
                if offset == 0xFFFF_FFFF, fieldEnd - field >= 8 {
                    offset = directory.le64(field)
                }
            }
            extra += 4 + fieldLength
        }
        let entryName = "entry \(name.isEmpty ? "#\(number)" : name)"
        // The local header (30 bytes) and the compressed data lie inside the file; the uncompressed size
        // is checked against the data as the entry is read.
        let headerOffset = try self.position(offset, length: 30, "\(entryName): its local header")
        guard compressed <= UInt64(size) else {
            throw Self.failure(path, "\(entryName): its \(compressed) compressed bytes are more than the file holds")
        }
        guard uncompressed <= UInt64(Int64.max) else {
            throw Self.failure(path, "\(entryName): its uncompressed size \(uncompressed) is out of range")
        }
        let entry = Entry(
            name: name, method: directory.le16(position + 10), flags: directory.le16(position + 8),
            crc32: directory.le32(position + 16), compressedSize: Int64(compressed), uncompressedSize: Int64(uncompressed),
            localHeaderOffset: headerOffset)
        return (entry, length)
    }

    /// An offset read from the archive, checked: `length` bytes from it lie inside the file.
    /// - Throws: ``GTFSError`` naming `what` when they do not.
    private func position(_ offset: UInt64, length: Int64, _ what: String) throws -> Int64 {
        guard length <= size, offset <= UInt64(size - length) else {
            throw Self.failure(path, "has \(what) outside the file (offset \(offset), \(length) bytes, file size \(size))")
        }
        return Int64(offset)
    }
}

extension Array where Element == UInt8 {
    /// A little-endian UInt16 at `offset`.
    func le16(_ offset: Int) -> UInt16 { UInt16(self[offset]) | UInt16(self[offset + 1]) << 8 }
    /// A little-endian UInt32 at `offset`.
    func le32(_ offset: Int) -> UInt32 { UInt32(le16(offset)) | UInt32(le16(offset + 2)) << 16 }
    /// A little-endian UInt64 at `offset`.
    func le64(_ offset: Int) -> UInt64 { UInt64(le32(offset)) | UInt64(le32(offset + 4)) << 32 }
}
