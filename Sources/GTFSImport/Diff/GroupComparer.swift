import GRDB
import GTFS

/// Compares one changed group of a grouped table (a trip's stop times) with the stored rows of that group
/// in memory, while the file is still being parsed, and records the differences for ``TableDiff``'s write.
///
/// A 1 % change of stop_times changes a fifth of the trips, and a changed trip's other rows are equal to
/// the stored ones: staging every row of those trips and walking them in SQLite cost more than the rest of
/// the import. Here the group's new records are put in key order in memory (``RowImages``) and merged with
/// the stored rows of the group, read through the key; only the rows that differ are staged (their new
/// values) and their keys recorded with what happens to them.
///
/// A group with a repeated key, or with a value SQLite would convert to another type, is left to the
/// staging copy, which refuses and converts exactly as a full import does.
struct GroupComparer {
    /// The rows of a compared group that go to staging (inserted and updated rows), and its unchanged rows.
    struct Outcome {
        var stage: [(batch: RecordBatch, range: Range<Int>)] = []
        var same = 0
    }

    private let primitives: [FieldPrimitive]
    /// The key's columns, as positions among the table's columns.
    private let keyColumns: [Int]
    /// The stored rows of one group (`?1`), every column, in key order.
    private let stored: RawStatement
    /// Records a key and what happens to it in the diff's keys.
    private let record: RawStatement

    /// Prepares the comparison of `file`'s groups with the stored rows of `feed`.
    /// - Parameter diffKeys: the qualified table of keys the diff writes (kind, then one column per key field).
    /// - Throws: `DatabaseError`.
    init(_ db: Database, file: GTFSFile, feed: Int64, groupColumn: String, diffKeys: String) throws {
        let table = StoreTable(file)
        primitives = table.description.fields.map(\.type.primitive)
        keyColumns = table.description.key
        stored = try RawStatement(
            db,
            sql: """
                SELECT \(table.columns.joined(separator: ", ")) FROM main.\(table.name)
                WHERE feed = \(feed) AND \(groupColumn) = ?1 ORDER BY \(table.keyColumns.joined(separator: ", "))
                """, cached: false)
        let placeholders = Array(repeating: "?", count: keyColumns.count + 1).joined(separator: ", ")
        record = try RawStatement(db, sql: "INSERT INTO \(diffKeys) VALUES (\(placeholders))", cached: false)
    }

    /// Compares `group` with the stored rows of its key and records every difference.
    /// - Returns: what to stage, or `nil` when the group must be staged whole instead (nothing was recorded).
    /// - Throws: `DatabaseError`.
    func compare(_ group: PendingGroup, key: String) throws -> Outcome? {
        let box = ImageBox(RowImages(primitives: primitives))
        var origins: [(segment: Int, index: Int)] = []
        for (position, segment) in group.segments.enumerated() {
            guard segment.batch.accept(ImageAdder(box: box, range: segment.range)) else { return nil }
            origins += segment.range.map { (position, $0) }
        }
        let images = box.images
        let order = try sortedByKey(images)
        guard let order else { return nil }

        var outcome = Outcome()
        stored.bind(1, key)
        defer { stored.reset() }
        var hasStored = try stored.step()
        var next = 0
        while hasStored || next < order.count {
            let row = next < order.count ? order[next] : -1
            // Negative: the stored row's key comes first.
            let position = !hasStored ? 1 : row < 0 ? -1 : -compareKey(images, row)
            if position < 0 {
                try recordStored(.delete)
                hasStored = try stored.step()
                continue
            }
            if position > 0 {
                try recordNew(.insert, images, row)
            } else if sameRow(images, row) {
                outcome.same += 1
                hasStored = try stored.step()
                next += 1
                continue
            } else {
                try recordNew(.update, images, row)
                hasStored = try stored.step()
            }
            let origin = origins[row]
            let batch = group.segments[origin.segment].batch
            outcome.stage.append((batch, origin.index ..< origin.index + 1))
            next += 1
        }
        return outcome
    }

    /// The rows in key order, or `nil` when two share a key.
    private func sortedByKey(_ images: RowImages) throws -> [Int]? {
        let keyColumns = self.keyColumns
        let order = (0 ..< images.count).sorted { a, b in
            for column in keyColumns {
                let result = images.compare(a, b, column)
                if result != 0 { return result < 0 }
            }
            return a < b
        }
        for (a, b) in zip(order, order.dropFirst()) where keyColumns.allSatisfy({ images.compare(a, b, $0) == 0 }) {
            return nil
        }
        return order
    }

    /// The order of row `row`'s key and the current stored row's: negative when the row's comes first.
    private func compareKey(_ images: RowImages, _ row: Int) -> Int {
        for column in keyColumns {
            let result = images.compare(row, column, stored, Int32(column))
            if result != 0 { return result }
        }
        return 0
    }

    private func sameRow(_ images: RowImages, _ row: Int) -> Bool {
        for column in 0 ..< primitives.count where !images.equals(row, column, stored, Int32(column)) { return false }
        return true
    }

    private func recordStored(_ write: TableDiff.Write) throws {
        record.reset()
        record.bind(1, write.rawValue)
        for (index, column) in keyColumns.enumerated() {
            record.bind(Int32(index + 2), valueOf: Int32(column), in: stored)
        }
        _ = try record.execute()
    }

    private func recordNew(_ write: TableDiff.Write, _ images: RowImages, _ row: Int) throws {
        record.reset()
        record.bind(1, write.rawValue)
        for (index, column) in keyColumns.enumerated() {
            images.bind(row, column, to: record, at: Int32(index + 2))
        }
        _ = try record.execute()
    }

    /// Holds the images while a visitor adds to them, so that they are not copied.
    private final class ImageBox {
        var images: RowImages
        init(_ images: RowImages) { self.images = images }
    }

    private struct ImageAdder: RecordBatchVisitor {
        let box: ImageBox
        let range: Range<Int>

        func visit<R: GTFSRecord>(_ records: [R]) throws(Never) -> Bool {
            for index in range where !box.images.add(records[index]) { return false }
            return true
        }
    }
}
