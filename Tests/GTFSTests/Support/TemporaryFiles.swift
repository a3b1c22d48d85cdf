import Foundation

/// Files written for one test run, under the system's temporary folder.
enum TemporaryFiles {
    static let folder: String = {
        let path = NSTemporaryDirectory() + "gtfs-tests-\(getpid())"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    /// Writes bytes to a fresh file (in its own folder, so the name can be a GTFS file name).
    static func write(_ bytes: [UInt8], name: String) throws -> String {
        let directory = folder + "/" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A fresh empty folder.
    static func directory() throws -> String {
        let path = folder + "/" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}
