import Foundation
import GTFS

import Platform

/// The disk space a full import needs, checked before it writes: a file system that fills up during an
/// import fails it late, after minutes of work.
enum DiskSpace {
    /// The least space a full import of `contentBytes` of feed text needs in the database's folder: one
    /// and a half times the text. A new store measured 1.75 (VBB-scale feed) to 3 times its text, indexes
    /// included; an import into an existing store writes the same pages to its WAL first. The estimate
    /// stays under the real need, so it refuses only imports that could not succeed.
    static func estimatedNeed(forContent contentBytes: Int64) -> Int64 {
        let (need, overflow) = contentBytes.multipliedReportingOverflow(by: 3)
        return overflow ? .max : need / 2
    }

    /// Fails when the folder of `databasePath` lacks the space a full import of `entries` needs.
    ///
    /// Entries whose size is unknown (standard input) count as empty: the check is then only a floor.
    /// - Throws: `ImportError.notEnoughSpace(path:folder:needed:available:)`.
    static func check(_ entries: [FeedEntry], databasePath: String) throws {
        let content = entries.reduce(Int64(0)) { total, entry in
            let (sum, overflow) = total.addingReportingOverflow(max(0, entry.declaredContentSize ?? 0))
            return overflow ? .max : sum
        }
        let folder = DatabasePath.folder(of: databasePath)
        let needed = estimatedNeed(forContent: content)
        guard let available = System.availableBytes(at: folder), available < needed else { return }
        throw ImportError.notEnoughSpace(path: databasePath, folder: folder, needed: needed, available: available)
    }

    /// The folder SQLite writes its temporary files to (an incremental import's scratch database, the
    /// sorts of an index build), found as SQLite's Unix file system layer finds it: the first writable
    /// folder of `SQLITE_TMPDIR`, `TMPDIR`, `/var/tmp`, `/usr/tmp`, `/tmp`, `.`; with the variable that named it.
    static var sqliteTemporaryFolder: (path: String, variable: String?) {
        let environment = ProcessInfo.processInfo.environment
        let candidates: [(String?, String?)] = [
            (environment["SQLITE_TMPDIR"], "SQLITE_TMPDIR"), (environment["TMPDIR"], "TMPDIR"), ("/var/tmp", nil), ("/usr/tmp", nil),
            ("/tmp", nil),
        ]
        for case let (folder?, variable) in candidates {
            var status = stat()
            if stat(folder, &status) == 0, status.st_mode & S_IFMT == S_IFDIR, access(folder, W_OK | X_OK) == 0 { return (folder, variable) }
        }
        return (".", nil)
    }

    /// For a full disk: which disk, when SQLite's temporary folder is on another file system than the
    /// database and has less room. `nil` when the database's own disk is the one to blame.
    /// - Returns: `the temporary folder /tmp (TMPDIR), where SQLite keeps its scratch and sort files, has …`.
    static func fullTemporaryFolder(databasePath: String) -> String? {
        let folder = DatabasePath.folder(of: databasePath)
        let (temporary, variable) = sqliteTemporaryFolder
        var (databaseStatus, temporaryStatus) = (stat(), stat())
        guard stat(folder, &databaseStatus) == 0, stat(temporary, &temporaryStatus) == 0,
            databaseStatus.st_dev != temporaryStatus.st_dev,
            let databaseFree = System.availableBytes(at: folder), let temporaryFree = System.availableBytes(at: temporary),
            temporaryFree < databaseFree
        else { return nil }
        return "the temporary folder \(GTFSError.displayable(temporary))\(variable.map { " (\($0))" } ?? ""), where SQLite keeps its "
            + "scratch and sort files, has \(Count.bytes(temporaryFree)) free, the database's folder \(Count.bytes(databaseFree)); "
            + "set \(variable ?? "TMPDIR") to a folder with room"
    }
}
