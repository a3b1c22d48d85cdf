package import Foundation

/// A deterministic, VBB-scale synthetic GTFS feed: Berlin-style stations and platforms, bus, tram,
/// U-Bahn, S-Bahn and regional lines, trips with stop times past midnight, calendars, shapes and
/// transfers, every reference consistent.
///
/// The same scale and seed always give byte-identical files. Scale 1.0 is about the size of Berlin's
/// VBB feed (42 000 stops, 250 000 trips, 6 000 000 stop times, 5 000 000 shape points); counts grow
/// linearly with the scale, from 0.01 to 10. Rows are generated while they are written, through one
/// reusable buffer: memory stays small whatever the scale.
///
/// ```swift
/// let feed = try SyntheticFeed(scale: 0.1, seed: 7)
/// let counts = try feed.write(toPath: "/tmp/feed.zip")          // zip, from the extension
/// try feed.write(toPath: "/tmp/feed", format: .gzipDirectory)   // stops.txt.gz, …
/// print(counts["stop_times.txt"], counts.totalBytes)
/// ```
package struct SyntheticFeed: Sendable {
    /// The bytes that end every line of every file.
    package typealias LineEnding = GTFSSynth.LineEnding

    /// The scales a feed can have.
    package static let scaleRange: ClosedRange<Double> = 0.01 ... 10

    /// The size relative to the VBB feed.
    package let scale: Double
    /// The seed of every random choice.
    package let seed: UInt64
    /// How lines end.
    package let lineEnding: LineEnding
    /// zlib's compression level for zip and gzip output, 1 (fastest) to 9 (smallest).
    package let compressionLevel: Int

    /// Describes a feed; nothing is generated until it is written.
    ///
    /// - Parameters:
    ///   - scale: the size relative to the VBB feed, within ``scaleRange``.
    ///   - seed: the seed; the same scale and seed give the same bytes.
    ///   - lineEnding: `\n` (the default) or `\r\n`.
    ///   - compressionLevel: zlib's level for zip and gzip output, 1 to 9 (default 6, zlib's own default).
    /// - Throws: ``SyntheticFeedError`` for a scale or level out of range.
    package init(scale: Double, seed: UInt64 = 42, lineEnding: LineEnding = .lf, compressionLevel: Int = 6) throws {
        guard scale.isFinite, Self.scaleRange.contains(scale) else {
            throw SyntheticFeedError(path: "", message: "the scale must be between 0.01 and 10, got \(scale)")
        }
        guard (1 ... 9).contains(compressionLevel) else {
            throw SyntheticFeedError(path: "", message: "the compression level must be between 1 and 9, got \(compressionLevel)")
        }
        self.scale = scale
        self.seed = seed
        self.lineEnding = lineEnding
        self.compressionLevel = compressionLevel
    }

    /// Generates the feed and writes it to a file URL.
    ///
    /// - Parameters:
    ///   - url: the zip file, or the directory (created if missing; files of the same names are replaced).
    ///   - format: the output format; `nil` infers it from the path (``Format/inferred(fromPath:)``).
    /// - Returns: the rows and bytes of every file.
    /// - Throws: ``SyntheticFeedError`` when a file cannot be written.
    @discardableResult
    package func write(to url: URL, format: Format? = nil) throws -> Counts {
        try write(toPath: url.path, format: format)
    }

    /// Generates the feed and writes it to a path.
    ///
    /// - Parameters:
    ///   - path: the zip file, or the directory (created if missing; files of the same names are replaced).
    ///   - format: the output format; `nil` infers it from the path (``Format/inferred(fromPath:)``).
    /// - Returns: the rows and bytes of every file.
    /// - Throws: ``SyntheticFeedError`` when a file cannot be written.
    @discardableResult
    package func write(toPath path: String, format: Format? = nil) throws -> Counts {
        let model = FeedModel(scale: scale, seed: seed)
        let buffer = RowBuffer(lineEnding: lineEnding)
        let level = Int32(compressionLevel)
        var files: [FileCount] = []
        switch format ?? Format.inferred(fromPath: path) {
        case .zip:
            do {
                let archive = try ZipWriter(path: path, level: level)
                for table in model.tables {
                    let entry = try archive.beginEntry(name: table.fileName)
                    files.append(try Self.write(table, to: entry, through: buffer))
                    try archive.endEntry()
                }
                try archive.finish()
            } catch {
                try? FileManager.default.removeItem(atPath: path)
                throw error
            }
        case .directory:
            try Self.makeDirectory(path)
            for table in model.tables {
                let file = try FileSink(path: (path as NSString).appendingPathComponent(table.fileName))
                files.append(try Self.write(table, to: file, through: buffer))
                try file.close()
            }
        case .gzipDirectory:
            try Self.makeDirectory(path)
            for table in model.tables {
                let file = try FileSink(path: (path as NSString).appendingPathComponent(table.fileName + ".gz"))
                let gzip = try DeflateStream(container: .gzip, level: level, target: file, name: file.path)
                files.append(try Self.write(table, to: gzip, through: buffer))
                try gzip.finish()
                try file.close()
            }
        }
        return Counts(files: files)
    }

    /// Writes one table's header and rows to a sink.
    private static func write(_ table: any FeedTable, to sink: any ByteSink, through buffer: RowBuffer) throws -> FileCount {
        buffer.begin(sink)
        try buffer.header(table.columns)
        try table.writeRows(to: buffer)
        let (rows, bytes) = try buffer.end()
        return FileCount(fileName: table.fileName, rows: rows, bytes: bytes)
    }

    private static func makeDirectory(_ path: String) throws {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw SyntheticFeedError(path: path, message: "cannot create the directory")
        }
    }
}
