package import GTFS

/// One whole group as the file gave it: the runs of consecutive rows with the same group joined across
/// batch boundaries.
package struct PendingGroup {
    /// The group; `nil` for rows whose first value is not text.
    package let key: String?
    package var digest: GroupDigest
    /// Whether the store refused a row of the group.
    package var refused: Bool
    /// Where its rows are (kept only when the joiner is asked to keep them); for a group whose earlier rows
    /// were handed over (``spilled``), only the rows since then.
    package var segments: [(batch: RecordBatch, range: Range<Int>)]
    /// Whether rows of the group were handed over before it ended (``GroupRunJoiner/takeOpenSegments()``).
    package var spilled = false
}

extension PendingGroup {
    /// One batch holding the rows of `groups`, in order (with their lines), or `nil` when they hold none.
    package static func gather(_ groups: [PendingGroup]) -> RecordBatch? {
        let segments = groups.flatMap(\.segments)
        guard let first = segments.first else { return nil }
        return first.batch.accept(Gatherer(segments: segments, fileName: first.batch.fileName))
    }

    /// The rows of the group in its segments.
    package var segmentRows: Int { segments.reduce(0) { $0 + $1.range.count } }

    private struct Gatherer: RecordBatchVisitor {
        let segments: [(batch: RecordBatch, range: Range<Int>)]
        let fileName: String

        func visit<R: GTFSRecord>(_: [R]) throws(Never) -> RecordBatch {
            var records: [R] = []
            var lines: [Int] = []
            let hasLines = segments.allSatisfy { !$0.batch.lines.isEmpty }
            for segment in segments {
                guard let batchRecords = segment.batch.records(as: R.self) else { continue }
                records += batchRecords[segment.range]
                if hasLines { lines += segment.batch.lines[segment.range] }
            }
            return RecordBatch(records, fileName: fileName, lines: lines, columnsInHeader: segments.first?.batch.columnsInHeader ?? [])
        }
    }
}
