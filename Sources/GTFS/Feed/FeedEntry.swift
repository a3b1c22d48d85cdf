public import LineReader

/// One file of a feed, ready to be read: its name, its table, and how to open it.
public struct FeedEntry: Sendable {
    /// The name as the feed spells it (`stops.txt`, `stops.txt.gz`, `gtfs/stops.txt`).
    public let fileName: String
    /// The table the file holds, `nil` for files outside the reference.
    public let table: GTFSFile?
    /// The raw size in bytes when known (compressed size for gzip and zip entries): the progress total.
    public let byteCount: Int64?
    let open: @Sendable (_ chunkSize: Int) throws -> OpenedEntry

    /// Opens the file for reading.
    ///
    /// - Parameter chunkSize: bytes per read.
    /// - Returns: a reader over the file's (decompressed) content, and a function that tells the raw
    ///   bytes consumed so far.
    /// - Throws: ``GTFSError`` (`unreadable`) naming the file.
    public func makeReader(chunkSize: Int = 64 * 1024) throws -> (reader: Reader, rawBytesRead: () -> Int64) {
        let opened = try open(chunkSize)
        return (opened.reader, opened.rawBytesRead)
    }
}

/// A reader and its raw progress counter.
struct OpenedEntry {
    let reader: Reader
    let rawBytesRead: () -> Int64
}
