import GTFS
import GTFSStoreCore

/// How a file's rows go to the server: the format and the columns named, chosen on its first batch.
struct CopyLayout: Sendable {
    let format: CopyFormat
    /// For each field, whether the `COPY` names it (``PostgresTable/sentColumns(inHeader:)``).
    let sent: [Bool]
}

/// A batch as the parse thread hands it over: its rows encoded for `COPY` (all of them, or those of the
/// groups to send) in its file's layout, which columns held values, and its group runs when the file is
/// digested.
struct EncodedBatch: Sendable {
    let batch: RecordBatch
    let layout: CopyLayout
    let bytes: [UInt8]
    let overflow: (column: Int, value: Int)?
    /// The first column that held a value although it is not sent.
    let unsent: Int?
    let filled: [Bool]
    let runs: [GroupRun]?

    /// - Parameters:
    ///   - changedGroups: for a file compared group by group, the groups whose rows are sent.
    ///   - digested: whether the file's group digests are recorded (then `runs` holds the batch's runs).
    ///   - layout: the file's layout; `nil` for its first batch, which chooses it from its header and rows.
    init(_ batch: RecordBatch, feed: Int32, changedGroups: Set<String>?, digested: Bool, layout: CopyLayout?) {
        self.batch = batch
        var ranges: [Range<Int>]?
        var runs: [GroupRun]?
        if changedGroups != nil || digested {
            let split = GroupRun.split(batch)
            if let changedGroups { ranges = split.filter { run in run.key.map(changedGroups.contains) ?? true }.map(\.range) }
            if digested { runs = split }
        }
        self.runs = runs
        let table = PostgresTable(batch.file)
        let types = table.types
        let sent = layout?.sent ?? table.sentColumns(inHeader: batch.columnsInHeader)
        var encoded = batch.accept(BatchEncoding(feed: feed, types: types, sent: sent, format: layout?.format ?? .text, ranges: ranges))
        let chosen = layout?.format ?? CopyFormat(types: types, filled: encoded.filled)
        if chosen != (layout?.format ?? .text) {
            encoded = batch.accept(BatchEncoding(feed: feed, types: types, sent: sent, format: chosen, ranges: ranges))
        }
        self.layout = CopyLayout(format: chosen, sent: sent)
        (bytes, overflow, unsent, filled) = encoded
    }
}

/// Encodes one batch's records with their concrete type, in one format and the columns of `sent`: all
/// records, or those in `ranges`.
private struct BatchEncoding: RecordBatchVisitor {
    let feed: Int32
    let types: [PostgresColumnType]
    let sent: [Bool]
    let format: CopyFormat
    var ranges: [Range<Int>]?

    func visit<R: GTFSRecord>(_ records: [R]) -> (bytes: [UInt8], overflow: (column: Int, value: Int)?, unsent: Int?, filled: [Bool]) {
        switch format {
        case .text: encode(records, with: TextRowEncoder(types: types, sent: sent))
        case .binary: encode(records, with: BinaryRowEncoder(types: types, sent: sent))
        }
    }

    private func encode<R: GTFSRecord, Encoder: CopyRowEncoder>(
        _ records: [R], with encoder: Encoder
    ) -> (bytes: [UInt8], overflow: (column: Int, value: Int)?, unsent: Int?, filled: [Bool]) {
        var encoder = encoder
        for range in ranges ?? [records.indices] {
            for record in records[range] {
                encoder.beginRow(feed: feed)
                record.write(to: &encoder)
            }
        }
        return (encoder.takeBytes(), encoder.overflow, encoder.unsent, encoder.filled)
    }
}
