import Foundation
import GTFS
import Synchronization

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
        Self.inProgress.withLock { _ = $0.insert(url.path) }
    }

    /// The files of the downloads under way in this process, for a process that must end at once.
    static let inProgress = Mutex<Set<String>>([])

    /// Deletes the files of the downloads under way (a process ending without their cleanup).
    static func removeAllInProgress() {
        for path in inProgress.withLock({ $0 }) { try? FileManager.default.removeItem(atPath: path) }
    }

    /// Appends `bytes`.
    func append(_ bytes: UnsafeRawBufferPointer) throws(FetchError) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        do {
            try handle.write(contentsOf: Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: base), count: bytes.count, deallocator: .none))
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
        released()
    }

    /// Hands the finished file to the caller, which removes it.
    func released() {
        _ = Self.inProgress.withLock { $0.remove(url.path) }
    }

    /// Whether the first bytes are a zip's: a local file header, or the end record of an empty zip.
    var looksLikeZip: Bool {
        head.count >= 4 && head[0] == 0x50 && head[1] == 0x4B && ((head[2] == 3 && head[3] == 4) || (head[2] == 5 && head[3] == 6))
    }
}
