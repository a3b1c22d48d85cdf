import Foundation

import Platform

/// What a database path names on disk, checked before anything is opened or created there.
enum DatabasePath {
    /// The file a path leads to: the path itself, or the end of its chain of symbolic links, also when
    /// that end does not exist yet (a new store is then created there, not at the link).
    static func resolved(_ path: String) -> String { System.endOfLinks(path) }

    /// Why the path cannot hold a store, or `nil` when it can: it does not exist yet, or it is a regular
    /// file (after symbolic links). A device (`/dev/null`), a directory, a socket or a pipe cannot.
    static func problem(_ path: String) -> String? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return "it is a directory"
        default: return "it is not a regular file"
        }
    }

    /// The folder that holds `path` (`.` for a bare file name).
    static func folder(of path: String) -> String {
        let folder = (path as NSString).deletingLastPathComponent
        return folder.isEmpty ? "." : folder
    }
}
