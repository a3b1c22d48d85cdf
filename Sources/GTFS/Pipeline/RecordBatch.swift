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
    /// The 1-based line where each record starts, index for index (empty when unknown).
    public let lines: [Int]
    private let storage: any Sendable

    /// Wraps an array of records.
    ///
    /// - Parameters:
    ///   - records: the records, in file order.
    ///   - fileName: the file's name as the feed spells it.
    ///   - lines: the line where each record starts, or empty when unknown.
    public init<R: GTFSRecord>(_ records: [R], fileName: String, lines: [Int] = []) {
        self.file = R.file
        self.fileName = fileName
        self.count = records.count
        self.lines = lines
        self.storage = records
    }

    /// The line where the record at `index` starts, when known.
    public func line(at index: Int) -> Int? {
        lines.indices.contains(index) ? lines[index] : nil
    }

    /// The records, when they are of type `R` (check ``file`` to know which type to ask for).
    public func records<R: GTFSRecord>(as type: R.Type) -> [R]? {
        storage as? [R]
    }
}
