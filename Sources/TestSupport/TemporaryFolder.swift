import Foundation

/// A fresh folder for one test, removed when the object goes away: keep it alive while its files are used.
public final class TemporaryFolder {
    /// The folder's path.
    public let path: String

    /// Creates an empty folder under the system's temporary folder.
    public init() throws {
        path = NSTemporaryDirectory() + "swift-gtfs-lines-tests-\(getpid())/" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// A path inside the folder.
    public func file(_ name: String) -> String { path + "/" + name }

    /// Writes bytes to a file of the folder (so the name can be a GTFS file name; `a/b.txt` creates `a`)
    /// and returns its path.
    @discardableResult
    public func write(_ bytes: [UInt8], name: String) throws -> String {
        let target = file(name)
        let parent = URL(fileURLWithPath: target).deletingLastPathComponent().path
        try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: target))
        return target
    }

    /// Writes text as UTF-8 to a file of the folder and returns its path.
    @discardableResult
    public func write(_ text: String, name: String) throws -> String {
        try write(Array(text.utf8), name: name)
    }
}
