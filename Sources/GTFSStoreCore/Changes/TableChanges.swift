import GTFS

/// What applying a new version of one table changed, by key: rows inserted, updated, deleted and left as they were.
public struct TableChanges: Sendable, Hashable, CustomStringConvertible {
    /// Rows whose key the store did not hold.
    public var inserted = 0
    /// Rows whose key the store held with other values.
    public var updated = 0
    /// Rows of the store whose key the new version lacks.
    public var deleted = 0
    /// Rows identical in the store and the new version.
    public var unchanged = 0

    /// Creates counts.
    ///
    /// - Parameters:
    ///   - inserted: rows whose key the store did not hold.
    ///   - updated: rows whose key the store held with other values.
    ///   - deleted: rows of the store whose key the new version lacks.
    ///   - unchanged: rows identical in the store and the new version.
    public init(inserted: Int = 0, updated: Int = 0, deleted: Int = 0, unchanged: Int = 0) {
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
        self.unchanged = unchanged
    }

    /// Whether nothing changed.
    public var isEmpty: Bool { inserted == 0 && updated == 0 && deleted == 0 }

    /// Adds another table's counts.
    /// - Parameters:
    ///   - lhs: one table's counts.
    ///   - rhs: another table's counts.
    /// - Returns: the sums, count by count.
    public static func + (lhs: TableChanges, rhs: TableChanges) -> TableChanges {
        TableChanges(
            inserted: lhs.inserted + rhs.inserted, updated: lhs.updated + rhs.updated, deleted: lhs.deleted + rhs.deleted,
            unchanged: lhs.unchanged + rhs.unchanged)
    }

    /// `12 inserted, 3 updated, 0 deleted, 23,403 unchanged`.
    public var description: String {
        "\(Count.grouped(inserted)) inserted, \(Count.grouped(updated)) updated, \(Count.grouped(deleted)) deleted, "
            + "\(Count.grouped(unchanged)) unchanged"
    }
}
