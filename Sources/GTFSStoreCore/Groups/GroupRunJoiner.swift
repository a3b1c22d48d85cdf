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

    /// The rows the open group holds in its segments.
    package var openRows: Int { open?.segmentRows ?? 0 }

    /// The open group's key.
    package var openKey: String? { open?.key }

    /// Whether the open group has handed over rows before (``takeOpenSegments()``).
    package var openIsSpilled: Bool { open?.spilled ?? false }

    /// Hands over the rows the open group holds, so that a group of any size never holds more than a
    /// batch or so: the group goes on without them, marked ``PendingGroup/spilled``, its digest whole.
    /// - Returns: the rows as a group of their own (key and digest so far), or `nil` when it holds none.
    package mutating func takeOpenSegments() -> PendingGroup? {
        guard var current = open, !current.segments.isEmpty else { return nil }
        let taken = PendingGroup(key: current.key, digest: current.digest, refused: current.refused, segments: current.segments)
        current.segments = []
        current.spilled = true
        open = current
        return taken
    }

    /// The open group at the end of the file.
    package mutating func finish() -> PendingGroup? {
        defer { open = nil }
        return open
    }
}
