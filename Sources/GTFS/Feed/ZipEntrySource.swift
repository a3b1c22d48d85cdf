import CZlib
import LineReader

import Platform

/// The stored (compressed) bytes of one zip entry, read with `pread` from the archive.
final class ZipStoredBytes: ByteSource {
    let name: String
    var byteCount: Int64? { length }
    private let archive: ZipArchive
    private var offset: Int64
    private let length: Int64
    private var consumed: Int64 = 0

    init(archive: ZipArchive, offset: Int64, length: Int64, name: String) {
        self.archive = archive
        self.offset = offset
        self.length = length
        self.name = name
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let wanted = Int(min(Int64(buffer.count), length - consumed))
        guard wanted > 0, let base = buffer.baseAddress else { return 0 }
        while true {
            let n = pread(archive.descriptor, base, wanted, off_t(offset + consumed))
            if n < 0 {
                if errno == EINTR { continue }
                throw ReaderError.io(source: name, operation: "read", errno: errno)
            }
            if n == 0 {
                throw ReaderError.truncatedCompressedData(source: name, format: "zip", offset: consumed)
            }
            consumed += Int64(n)
            return n
        }
    }
}

/// One zip entry's content, inflated when deflated, with its CRC-32 and size checked at the end so
/// damaged data never passes silently.
final class ZipEntrySource: ByteSource {
    let name: String
    /// The entry's compressed size: what progress counts.
    var byteCount: Int64? { entry.compressedSize }
    private let entry: ZipArchive.Entry
    private let content: any ByteSource
    private let stored: ZipStoredBytes
    private var crc: UInt = 0
    private var produced: Int64 = 0
    private var checked = false

    /// - Throws: ``GTFSError`` for encrypted entries or unsupported compression methods.
    init(archive: ZipArchive, entry: ZipArchive.Entry) throws {
        name = "\(archive.path):\(entry.name)"
        self.entry = entry
        guard entry.flags & 1 == 0 else { throw ZipArchive.failure(name, "is encrypted") }
        stored = ZipStoredBytes(
            archive: archive, offset: try archive.dataOffset(of: entry), length: entry.compressedSize, name: name)
        switch entry.method {
        case 0: content = stored
        case 8: content = try DeflateSource(compressed: stored, name: name)
        default: throw ZipArchive.failure(name, "uses compression method \(entry.method); only stored (0) and deflate (8) are read")
        }
    }

    /// Compressed bytes read so far.
    var compressedBytesRead: Int64 {
        (content as? DeflateSource)?.compressedBytesRead ?? produced
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = try content.read(into: buffer)
        if count > 0, let base = buffer.baseAddress {
            crc = crc32(crc, base.assumingMemoryBound(to: Bytef.self), UInt32(count))
            produced += Int64(count)
            // A decompression bomb declares a small size: stop as soon as the data passes it.
            guard produced <= entry.uncompressedSize else {
                throw ReaderError.corruptCompressedData(
                    source: name, format: "zip", offset: compressedBytesRead,
                    reason: "the entry inflates to more than the \(entry.uncompressedSize) bytes its directory declares")
            }
        } else if count == 0 && !checked {
            checked = true
            guard produced == entry.uncompressedSize else {
                throw ReaderError.corruptCompressedData(
                    source: name, format: "zip", offset: compressedBytesRead,
                    reason: "the entry holds \(produced) bytes, its directory says \(entry.uncompressedSize)")
            }
            guard UInt32(truncatingIfNeeded: crc) == entry.crc32 else {
                throw ReaderError.corruptCompressedData(
                    source: name, format: "zip", offset: compressedBytesRead, reason: "CRC-32 mismatch")
            }
        }
        return count
    }
}
