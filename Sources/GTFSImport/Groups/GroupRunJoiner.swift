package import GTFS

/// Joins the ``GroupRun``s of consecutive batches into whole groups: a run that ends a batch may go on
/// in the next one, so the last run of each batch stays open until the next batch (or the file's end)
/// shows where it ends.
package struct GroupRunJoiner {
    /// Whether the groups keep their rows' batches (to stage them later).
    let keepsSegments: Bool
    private var open: PendingGroup?

    package init(keepsSegments: Bool) {
        self.keepsSegments = keepsSegments
    }

    /// Takes the runs of the next batch.
    /// - Returns: the groups that this batch completed, in file order.
    package mutating func add(_ runs: [GroupRun], of batch: RecordBatch) -> [PendingGroup] {
        var completed: [PendingGroup] = []
        for (position, run) in runs.enumerated() {
            if position == 0, var current = open, current.key != nil, current.key == run.key {
                current.digest.add(run.digest)
                current.refused = current.refused || run.refused
                if keepsSegments { current.segments.append((batch, run.range)) }
                open = current
                continue
            }
            if let current = open { completed.append(current) }
            open = PendingGroup(
                key: run.key, digest: run.digest, refused: run.refused, segments: keepsSegments ? [(batch, run.range)] : [])
        }
        return completed
    }

    /// The open group at the end of the file.
    package mutating func finish() -> PendingGroup? {
        defer { open = nil }
        return open
    }
}
