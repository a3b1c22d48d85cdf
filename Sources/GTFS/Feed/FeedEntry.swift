public import LineReader

/// One file of a feed, ready to be read: its name, its table, and how to open it.
public struct FeedEntry: Sendable {
    /// The name as the feed spells it (`stops.txt`, `stops.txt.gz`, `gtfs/stops.txt`).
    public let fileName: String
    /// The table the file holds, `nil` for files outside the reference.
    public let table: GTFSFile?
    /// The raw size in bytes when known (compressed size for gzip and zip entries): the progress total.
    public let byteCount: Int64?
    /// Whether the file can be read more than once with the same content: a regular file or a zip entry,
    /// not standard input, a pipe or a device.
    public let isRereadable: Bool
    /// The CRC-32 of the decompressed content that a zip archive declares for the entry (checked when the
    /// entry is read to its end); `nil` for other files. Content whose CRC-32 differs is different content.
    public let declaredCRC32: UInt32?
    /// The size of the decompressed content as the file declares it, for estimates: a zip entry's
    /// uncompressed size, a gzip file's trailer (at least its compressed size), a plain file's size; `nil`
    /// for standard input. Not checked until the file is read.
    public let declaredContentSize: Int64?
    let open: @Sendable (Reader.Options) throws -> OpenedEntry
    /// Reads the bytes as an archive stores them, chunk by chunk; `nil` outside an archive.
    let readStored: (@Sendable (_ chunk: (UnsafeRawBufferPointer) -> Void) throws -> String)?

    init(
        fileName: String, table: GTFSFile?, byteCount: Int64?, isRereadable: Bool, declaredCRC32: UInt32? = nil,
        declaredContentSize: Int64?, readStored: (@Sendable (_ chunk: (UnsafeRawBufferPointer) -> Void) throws -> String)? = nil,
        open: @escaping @Sendable (Reader.Options) throws -> OpenedEntry
    ) {
        self.readStored = readStored
        self.fileName = fileName
        self.table = table
        self.byteCount = byteCount
        self.isRereadable = isRereadable
        self.declaredCRC32 = declaredCRC32
        self.declaredContentSize = declaredContentSize
        self.open = open
    }

    /// Opens the file for reading.
    ///
    /// A line longer than `maxLineLength` is skipped (see `Reader.Options.skipsOverlongLines`): a parser
    /// rejects its row and reads on, and memory stays bounded whatever the file holds.
    ///
    /// - Parameters:
    ///   - chunkSize: bytes per read.
    ///   - maxLineLength: the longest line read (``ParseOptions/maxLineLength`` by default).
    /// - Returns: a reader over the file's (decompressed) content, and a function that tells the raw
    ///   bytes consumed so far.
    /// - Throws: ``GTFSError`` (`unreadable`) naming the file.
    public func makeReader(
        chunkSize: Int = 64 * 1024, maxLineLength: Int = ParseOptions().maxLineLength
    ) throws -> (reader: Reader, rawBytesRead: () -> Int64) {
        let opened: OpenedEntry
        do {
            var options = Reader.Options(chunkSize: chunkSize, maxLineLength: maxLineLength)
            options.skipsOverlongLines = true
            opened = try open(options)
        } catch let error as ReaderError {
            throw GTFSError.unreadable(fileName, error)
        }
        return (opened.reader, opened.rawBytesRead)
    }

    /// The SHA-256 of a zip entry's bytes as the archive stores them (compressed), together with its
    /// compression method, sizes and CRC-32: equal values mean equal content, found without inflating the
    /// entry (an unchanged file that the next version of a feed compresses the same way). `nil` for files
    /// outside a zip archive.
    ///
    /// - Returns: 64 hex digits, or `nil`.
    /// - Throws: ``GTFSError`` (`unreadable`) naming the file.
    public func storedBytesHash() throws -> String? {
        guard let readStored else { return nil }
        let hasher = ContentHasher()
        let description: String
        do {
            description = try readStored { hasher.update($0) }
        } catch let error as ReaderError {
            throw GTFSError.unreadable(fileName, error)
        }
        Array(description.utf8).withUnsafeBytes { hasher.update($0) }
        guard let hash = hasher.finish() else {
            throw GTFSError(.unreadable, file: fileName, message: "SHA-256 is not available from libcrypto")
        }
        return hash
    }

    /// Reads the whole file and returns the SHA-256 of its decoded content, as ``FeedParser`` computes it
    /// with ``ParseOptions/hashesContent``: 64 hex digits, equal to `sha256sum` of the plain file (of the
    /// inflated file for gzip and zip entries).
    ///
    /// - Parameters:
    ///   - chunkSize: bytes per read.
    ///   - maxLineLength: the longest line accepted, as when parsing.
    ///   - shouldContinue: polled once per line; return `false` to stop (the call then throws `CancellationError`).
    /// - Returns: the hex digest.
    /// - Throws: ``GTFSError`` (`unreadable`) naming the file, or `CancellationError`.
    public func contentHash(
        chunkSize: Int = 64 * 1024, maxLineLength: Int = ParseOptions().maxLineLength, shouldContinue: () -> Bool = { true }
    ) throws -> String {
        let (reader, _) = try makeReader(chunkSize: chunkSize, maxLineLength: maxLineLength)
        let hasher = ContentHasher()
        reader.chunkObserver = { hasher.update($0) }
        do {
            _ = try reader.forEachLine { _ in if !shouldContinue() { throw CancellationError() } }
        } catch let error as ReaderError {
            throw GTFSError.unreadable(fileName, error)
        }
        guard let hash = hasher.finish() else {
            throw GTFSError(.unreadable, file: fileName, message: "SHA-256 is not available from libcrypto")
        }
        return hash
    }
}

/// A reader and its raw progress counter.
struct OpenedEntry {
    let reader: Reader
    let rawBytesRead: () -> Int64
}
