import Foundation
import GTFS

import Platform

/// A path an import writes besides its database (`--errors FILE`, `--changes FILE`), checked before the
/// import starts: the file is written as or after the import commits, when a path that overwrites the
/// database or the feed, or that cannot be written, would be found too late.
enum OutputPath {
    /// Why `path` cannot take output of an import of `inputs` into `database`, or `nil` when it can.
    static func problem(_ path: String, database: String, inputs: [String]) -> String? {
        let target = Location(path)
        for suffix in ["", "-wal", "-shm", "-journal", ".lock"] where target.isSame(as: Location(database + suffix)) {
            return "is the database \(database)\(suffix.isEmpty ? "" : " (its \(suffix.dropFirst()) file)")"
        }
        for input in inputs where input != "-" {
            let location = Location(input)
            if target.isSame(as: location) { return "is the input \(input)" }
            // A file of an input directory that the import reads as a table.
            if location.isDirectory, target.directory == location.canonical, GTFSFile(fileName: target.name) != nil {
                return "is a file of the input directory \(input)"
            }
        }
        if target.isDirectory { return "is a directory" }
        if target.exists {
            return access(path, W_OK) == 0 ? nil : "cannot be written: \(System.message(forErrno: errno))"
        }
        let folder = target.directory
        return access(folder, W_OK | X_OK) == 0 ? nil : "cannot be created in \(folder): \(System.message(forErrno: errno))"
    }

    /// A path as the file system sees it: its identity when it exists, its canonical path either way.
    private struct Location {
        let canonical: String
        let directory: String
        let name: String
        let identity: (device: UInt64, inode: UInt64)?
        let isDirectory: Bool

        var exists: Bool { identity != nil }

        init(_ path: String) {
            var status = stat()
            if stat(path, &status) == 0 {
                identity = System.fileIdentity(status)
                isDirectory = status.st_mode & S_IFMT == S_IFDIR
            } else {
                identity = nil
                isDirectory = false
            }
            let url = URL(fileURLWithPath: path).standardizedFileURL
            name = url.lastPathComponent
            // The folder with its links resolved, so two spellings of one place compare equal.
            directory = url.deletingLastPathComponent().resolvingSymlinksInPath().path
            canonical = (identity != nil ? url.resolvingSymlinksInPath().path : directory + "/" + name)
        }

        func isSame(as other: Location) -> Bool {
            if let mine = identity, let theirs = other.identity { return mine == theirs }
            return canonical == other.canonical
        }
    }
}
