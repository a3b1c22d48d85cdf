extension SyntheticFeed {
    /// What one file of a written feed holds.
    package struct FileCount: Sendable, Hashable {
        /// The table's file name, e.g. `stop_times.txt` (also for gzip and zip output).
        package let fileName: String
        /// Data rows, the header not counted.
        package let rows: Int
        /// Uncompressed bytes, the header included.
        package let bytes: Int64
    }

    /// What a written feed holds, file by file in writing order.
    ///
    /// ```swift
    /// let counts = try SyntheticFeed(scale: 0.01).write(toPath: "/tmp/feed.zip")
    /// print(counts["stop_times.txt"])   // 60 000 or so
    /// ```
    package struct Counts: Sendable, Hashable {
        /// One entry per file, in writing order (the GTFS load order).
        package let files: [FileCount]

        /// The rows of a file, `0` for a file the feed does not have.
        package subscript(fileName: String) -> Int {
            files.first { $0.fileName == fileName }?.rows ?? 0
        }

        /// Data rows over all files.
        package var totalRows: Int { files.reduce(0) { $0 + $1.rows } }

        /// Uncompressed bytes over all files.
        package var totalBytes: Int64 { files.reduce(0) { $0 + $1.bytes } }
    }
}
