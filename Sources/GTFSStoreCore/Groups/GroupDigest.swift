package import GTFS

/// The fingerprint of one group of rows (the rows of one trip in `stop_times`): the sum of the rows'
/// ``RowHasher`` hashes and their count.
///
/// A sum does not depend on the rows' order, so the rows of a trip may come in any order, and two
/// digests of parts of a group add up to the digest of the whole.
package struct GroupDigest: Sendable {
    package var a: UInt64 = 0
    package var b: UInt64 = 0
    package var rows = 0

    /// Adds one row's hash.
    mutating func add(_ hash: (UInt64, UInt64)) {
        a &+= hash.0
        b &+= hash.1
        rows += 1
    }

    /// Adds the rows of another part of the group.
    mutating func add(_ other: GroupDigest) {
        a &+= other.a
        b &+= other.b
        rows += other.rows
    }

    /// The halves as SQLite stores them (INTEGER is signed).
    package var storedA: Int64 { Int64(bitPattern: a) }
    package var storedB: Int64 { Int64(bitPattern: b) }
}

/// Consecutive rows of one batch that share their group (the value of the table's first key column),
/// with their digest: what the parser's thread hands the writer next to each batch of a grouped table.
package struct GroupRun: Sendable {
    /// The group; `nil` when the row's first value is not text (the store refuses such a row).
    package let key: String?
    /// The rows' indexes in the batch.
    package let range: Range<Int>
    package var digest: GroupDigest
    /// Whether the store refused a row of the run (set by the writer).
    package var refused = false

    /// Splits a batch of a grouped table (see ``GroupedTables``) into runs, hashing every record.
    /// Runs on the parser's thread, so the writer only handles whole groups.
    package static func split(_ batch: RecordBatch) -> [GroupRun] {
        batch.accept(Splitter())
    }

    private struct Splitter: RecordBatchVisitor {
        func visit<R: GTFSRecord>(_ records: [R]) throws(Never) -> [GroupRun] {
            var runs: [GroupRun] = []
            var start = 0
            var key: GTFSID?
            var digest = GroupDigest()
            for index in records.indices {
                var hasher = RowHasher()
                records[index].write(to: &hasher)
                let rowKey = hasher.firstText
                if index > start, rowKey != key || key == nil {
                    runs.append(GroupRun(key: key?.description, range: start ..< index, digest: digest))
                    start = index
                    digest = GroupDigest()
                }
                key = rowKey
                digest.add(hasher.finish())
            }
            if start < records.count { runs.append(GroupRun(key: key?.description, range: start ..< records.count, digest: digest)) }
            return runs
        }
    }
}
