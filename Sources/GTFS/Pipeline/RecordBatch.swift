/// A batch of records of one file, as the feed parser delivers them.
///
/// ```swift
/// if let stops = batch.records(as: Stop.self) { names += stops.compactMap(\.stopName) }
/// ```
public struct RecordBatch: Sendable {
    /// The table.
    public let file: GTFSFile
    /// The file's name as the feed spells it.
    public let fileName: String
    /// The number of records.
    public let count: Int
    private let storage: any Sendable

    /// Wraps an array of records.
    public init<R: GTFSRecord>(_ records: [R], fileName: String) {
        self.file = R.file
        self.fileName = fileName
        self.count = records.count
        self.storage = records
    }

    /// The records, when they are of type `R` (check ``file`` to know which type to ask for).
    public func records<R: GTFSRecord>(as type: R.Type) -> [R]? {
        storage as? [R]
    }
}
