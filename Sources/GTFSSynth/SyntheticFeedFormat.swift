extension SyntheticFeed {
    /// How the feed's files are written.
    package enum Format: String, Sendable, CaseIterable {
        /// One zip archive (deflate-compressed entries), the way agencies publish GTFS.
        case zip
        /// A directory of plain `*.txt` files.
        case directory = "dir"
        /// A directory of gzip-compressed `*.txt.gz` files.
        case gzipDirectory = "gzip-dir"

        /// The format a path implies: ``zip`` for a name ending in `.zip` (any case), else ``directory``.
        package static func inferred(fromPath path: String) -> Format {
            path.lowercased().hasSuffix(".zip") ? .zip : .directory
        }
    }
}
