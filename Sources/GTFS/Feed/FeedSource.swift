import Foundation
import LineReader

/// Where a feed comes from: a single file, a directory, a zip archive, or standard input.
///
/// ```swift
/// let source = try FeedSource(path: "vbb.zip")        // detected: zip, directory or single file
/// for entry in try source.entries() { print(entry.fileName, entry.table as Any) }
/// ```
public enum FeedSource: Sendable {
    /// One file; its table comes from the name (`stops.txt`, `stops.txt.gz`, `stops.csv`) unless given.
    case file(path: String, table: GTFSFile?)
    /// A directory holding the feed's files.
    case directory(path: String)
    /// A GTFS zip archive, read entry by entry as a stream.
    case zip(path: String)
    /// Standard input holding one table (plain or gzip).
    case standardInput(table: GTFSFile)
    /// Several single files, each a table named by its file name (`stops.txt.gz`, `trips.csv`), read in
    /// ``GTFSFile/loadOrder``.
    case files(paths: [String])

    /// Whether the source is a whole feed (a directory or a zip archive) rather than single tables: a
    /// whole feed replaces every table of a store, single tables replace only themselves.
    public var isWholeFeed: Bool {
        switch self {
        case .directory, .zip: true
        case .file, .standardInput, .files: false
        }
    }

    /// Detects the kind of source at `path`: a directory, a zip archive (by its magic bytes), or a file.
    ///
    /// - Parameters:
    ///   - path: a path, or `-` for standard input.
    ///   - table: the table of a single file or of standard input, when its name does not say.
    /// - Throws: ``GTFSError`` when the path does not exist, or standard input is used without a table.
    public init(path: String, table: GTFSFile? = nil) throws {
        if path == "-" {
            guard let table else {
                throw GTFSError(.unreadable, file: "<stdin>", message: "standard input needs the table named explicitly")
            }
            self = .standardInput(table: table)
            return
        }
        let kind: PathKind
        do {
            kind = try PathKind(path)
        } catch {
            let isURL = ["http://", "https://", "ftp://", "file://"].contains { path.lowercased().hasPrefix($0) }
            throw isURL ? GTFSError(.unreadable, file: path, message: "is a URL, not a path: only http and https URLs are fetched (gtfs-import URL, GTFSFetch)") : error
        }
        switch kind {
        case .directory:
            self = .directory(path: path)
        case .regularFile where FeedSource.hasZipMagic(path):
            self = .zip(path: path)
        case .regularFile where path.lowercased().hasSuffix(".zip"):
            throw GTFSError(.unreadable, file: path, message: "is not a zip archive")
        case .regularFile, .stream:
            // A pipe, FIFO or device is not opened here: its first bytes would be gone when the import opens it
            // again (and a FIFO's second open waits for a writer that has left). The reader that opens it once
            // sniffs gzip, zip and UTF-16 from memory.
            self = .file(path: path, table: table)
        }
    }

    /// Whether the regular file at `path` starts as a zip archive does.
    private static func hasZipMagic(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        return startsLikeZip((try? handle.read(upToCount: 4)) ?? Data())
    }

    /// Whether `bytes` begin as a zip archive does: a local file header, or the end record of an empty one.
    static func startsLikeZip(_ bytes: some Collection<UInt8>) -> Bool {
        let magic = Array(bytes.prefix(4))
        return magic == [0x50, 0x4B, 0x03, 0x04] || magic == [0x50, 0x4B, 0x05, 0x06]
    }

    /// The feed's files, in ``GTFSFile/loadOrder`` (files outside the reference last, with `table == nil`).
    ///
    /// Hidden files and `__MACOSX/` are left out; a zip whose files sit in one top-level folder is read
    /// from that folder.
    /// - Returns: the entries, not yet opened.
    /// - Throws: ``GTFSError`` when the directory or archive cannot be read.
    public func entries() throws -> [FeedEntry] {
        let unordered: [FeedEntry]
        switch self {
        case .file(let path, let table):
            unordered = [Self.fileEntry(path: path, name: (path as NSString).lastPathComponent, table: table)]
        case .files(let paths):
            unordered = paths.map { Self.fileEntry(path: $0, name: ($0 as NSString).lastPathComponent, table: nil) }
        case .standardInput(let table):
            unordered = [
                FeedEntry(fileName: table.fileName, table: table, byteCount: nil, isRereadable: false, declaredContentSize: nil) { options in
                    let reader = try Reader(source: UTF16Source(FileSource.standardInput()), options: options)
                    return OpenedEntry(reader: reader, rawBytesRead: { reader.bytesRead })
                }
            ]
        case .directory(let path):
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: path)
            } catch {
                throw GTFSError(.unreadable, file: path, message: "cannot list the directory")
            }
            unordered = try names.filter { !$0.hasPrefix(".") }.sorted().compactMap { name in
                let full = (path as NSString).appendingPathComponent(name)
                do {
                    guard try PathKind(full) != .directory else { return nil }
                } catch where GTFSFile(fileName: name) == nil {
                    // Not a table the import would read: a broken link there changes nothing.
                    return nil
                }
                return Self.fileEntry(path: full, name: name, table: nil)
            }
        case .zip(let path):
            unordered = try Self.zipEntries(path: path)
        }
        return Self.ordered(unordered)
    }

    static func ordered(_ entries: [FeedEntry]) -> [FeedEntry] {
        func rank(_ entry: FeedEntry) -> Int {
            entry.table.flatMap { GTFSFile.loadOrder.firstIndex(of: $0) } ?? GTFSFile.loadOrder.count
        }
        return entries.enumerated().sorted { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }.map(\.element)
    }

    private static func fileEntry(path: String, name: String, table: GTFSFile?) -> FeedEntry {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        let size = (attributes?[.size] as? NSNumber)?.int64Value
        let isRegular = attributes?[.type] as? FileAttributeType == .typeRegular
        return FeedEntry(
            fileName: name, table: table ?? GTFSFile(fileName: name), byteCount: size, isRereadable: isRegular,
            declaredContentSize: isRegular ? DeclaredSize.ofFile(at: path) : nil
        ) { options in
            let reader = try Reader(source: UTF16Source(FileSource(path: path)), options: options)
            return OpenedEntry(reader: reader, rawBytesRead: { reader.bytesRead })
        }
    }

    private static func zipEntries(path: String) throws -> [FeedEntry] {
        let archive = try ZipArchive(path: path)
        let files = archive.entries.filter { entry in
            !entry.isDirectory && !entry.name.hasPrefix("__MACOSX/")
                && !(entry.name.split(separator: "/").last?.hasPrefix(".") ?? true)
        }
        // Files inside a single top-level folder are read from there.
        let folders = Set(files.map { $0.name.split(separator: "/", maxSplits: 1).count > 1 ? String($0.name.split(separator: "/")[0]) : "" })
        let prefix = folders.count == 1 && folders.first != "" ? (folders.first ?? "") + "/" : ""
        let shared = UncheckedArchive(archive: archive)
        return files.map { entry in
            let name = prefix.isEmpty || !entry.name.hasPrefix(prefix) ? entry.name : String(entry.name.dropFirst(prefix.count))
            let table = name.contains("/") ? nil : GTFSFile(fileName: name)
            return FeedEntry(
                fileName: name, table: table, byteCount: entry.compressedSize, isRereadable: true, declaredCRC32: entry.crc32,
                declaredContentSize: entry.uncompressedSize,
                readStored: { chunk in
                    let stored = ZipStoredBytes(
                        archive: shared.archive, offset: try shared.archive.dataOffset(of: entry), length: entry.compressedSize, name: name)
                    var buffer = [UInt8](repeating: 0, count: 1 << 16)
                    while true {
                        let count = try buffer.withUnsafeMutableBytes { try stored.read(into: $0) }
                        if count == 0 { break }
                        buffer.withUnsafeBytes { chunk(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
                    }
                    return "zip method \(entry.method) crc32 \(entry.crc32) sizes \(entry.compressedSize) \(entry.uncompressedSize)"
                }
            ) { options in
                let source = try ZipEntrySource(archive: shared.archive, entry: entry)
                let reader = try Reader(source: UTF16Source(source), options: options)
                return OpenedEntry(reader: reader, rawBytesRead: { source.compressedBytesRead })
            }
        }
    }
}

/// The archive shared by the entries of one zip: its descriptor is only read with `pread`, which
/// needs no shared position, and entries are opened one at a time by the parser.
private struct UncheckedArchive: @unchecked Sendable {
    let archive: ZipArchive
}
