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
    /// - Throws: ``ImportError/notEnoughSpace(path:folder:needed:available:)``.
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
}
