import Foundation
import GTFS

/// The file a download is written to, with the SHA-256 of what it holds so far: created empty (mode 0600,
/// a feed behind a key is private), appended to, truncated when a server starts over, removed unless kept.
final class DownloadFile {
    let url: URL
    private let handle: FileHandle
    private(set) var hasher = ContentHasher()
    private(set) var size: Int64 = 0
    /// The first bytes, to tell a zip from an error page.
    private(set) var head: [UInt8] = []

    /// A new, empty file in `directory`.
    init(in directory: URL) throws(FetchError) {
        url = directory.appendingPathComponent(".gtfs-download-\(UUID().uuidString.prefix(8)).zip")
        guard FileManager.default.createFile(atPath: url.path, contents: nil, attributes: [.posixPermissions: 0o600]),
            let handle = FileHandle(forWritingAtPath: url.path)
        else {
            let reason = FileManager.default.fileExists(atPath: directory.path) ? "not writable" : "no such directory"
            throw .file(path: directory.path, message: "cannot create a file there (\(reason))")
        }
        self.handle = handle
    }

    /// Appends `bytes`.
    func append(_ bytes: UnsafeRawBufferPointer) throws(FetchError) {
        do {
            try handle.write(contentsOf: Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: bytes.baseAddress!), count: bytes.count, deallocator: .none))
        } catch {
            throw .file(path: url.path, message: (error as NSError).localizedDescription)
        }
        hasher.update(bytes)
        if head.count < 64 { head += bytes.prefix(64 - head.count) }
        size += Int64(bytes.count)
    }

    /// Empties the file, for a body that starts over.
    func truncate() throws(FetchError) {
        do {
            try handle.truncate(atOffset: 0)
        } catch {
            throw .file(path: url.path, message: (error as NSError).localizedDescription)
        }
        hasher = ContentHasher()
        head = []
        size = 0
    }

    /// Writes it to storage and closes it; the SHA-256 of its bytes.
    func finish() throws(FetchError) -> String {
        do {
            try handle.synchronize()
            try handle.close()
        } catch {
            throw .file(path: url.path, message: (error as NSError).localizedDescription)
        }
        return hasher.finish() ?? ""
    }

    /// Closes and deletes it.
    func remove() {
        try? handle.close()
        try? FileManager.default.removeItem(at: url)
    }

    /// Whether the first bytes are a zip's: a local file header, or the end record of an empty zip.
    var looksLikeZip: Bool {
        head.count >= 4 && head[0] == 0x50 && head[1] == 0x4B && ((head[2] == 3 && head[3] == 4) || (head[2] == 5 && head[3] == 6))
    }
}
