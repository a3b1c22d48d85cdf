package import GTFS

extension FeedSource {
    /// The source as a store records it (`feeds.source`, `imports.source`) and messages name it: its path,
    /// the paths of several files, or `<stdin> (stops.txt)`.
    package var storedDescription: String {
        switch self {
        case .file(let path, _), .directory(let path), .zip(let path): path
        case .standardInput(let table): "<stdin> (\(table.fileName))"
        case .files(let paths): paths.joined(separator: ", ")
        }
    }
}

extension ImportOptions {
    /// How the import records and names `source`: ``sourceName``, else its path.
    package func recordedSource(_ source: FeedSource) -> String { sourceName ?? source.storedDescription }
}
