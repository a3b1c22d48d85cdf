import Foundation

/// The size a file's content declares, read without decompressing it: for estimates (the disk space an
/// import needs), never trusted for anything that could fail or allocate.
enum DeclaredSize {
    /// A plain file's size, or for gzip its `ISIZE` trailer: the size of the last member modulo 2^32,
    /// taken as at least the compressed size (a gzip file's content is rarely smaller).
    static func ofFile(at path: String) -> Int64? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }  // read only: nothing to lose
        guard let size = try? handle.seekToEnd(), size <= UInt64(Int64.max) else { return nil }
        guard size >= 18, (try? handle.seek(toOffset: 0)) != nil, let magic = try? handle.read(upToCount: 2),
            magic == Data([0x1F, 0x8B]), (try? handle.seek(toOffset: size - 4)) != nil,
            let trailer = try? handle.read(upToCount: 4), trailer.count == 4
        else { return Int64(size) }
        let declared = trailer.reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return Int64(max(declared, size))
    }
}
