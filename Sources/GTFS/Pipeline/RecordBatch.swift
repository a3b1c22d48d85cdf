/// A batch of records of one file, as the feed parser delivers them.
///
/// Its records keep their type: ``records(as:)`` gives them when you know the file, and ``accept(_:)`` hands
/// them to code written once for every record type (a store's insert, a hash), specialised per type.
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
    /// For each field of the table (``GTFSFile/table``), whether the file's header named it; empty when
    /// unknown. A field whose column is absent holds no value, or its default (`pickup_type` 0): a store can
    /// leave the others out of what it sends.
    public let columnsInHeader: [Bool]
    private let storage: any RecordStorage

    /// Wraps an array of records.
    ///
    /// - Parameters:
    ///   - records: the records, in file order.
    ///   - fileName: the file's name as the feed spells it.
    ///   - lines: the line where each record starts, or empty when unknown.
    ///   - columnsInHeader: for each field, whether the file's header named it, or empty when unknown.
    public init<R: GTFSRecord>(_ records: [R], fileName: String, lines: [Int] = [], columnsInHeader: [Bool] = []) {
        self.file = R.file
        self.fileName = fileName
        self.count = records.count
        self.lines = lines
        self.columnsInHeader = columnsInHeader
        self.storage = TypedRecords(records: records)
    }

    /// The line where the record at `index` starts, when known.
    /// - Parameter index: the record's position in the batch.
    /// - Returns: the 1-based line, or `nil` when the batch has no line numbers.
    public func line(at index: Int) -> Int? {
        lines.indices.contains(index) ? lines[index] : nil
    }

    /// The records, when they are of type `R` (check ``file`` to know which type to ask for).
    /// - Parameter type: the record type of the batch's file, e.g. `Stop.self`.
    /// - Returns: the records, or `nil` when they are of another type.
    public func records<R: GTFSRecord>(as type: R.Type) -> [R]? {
        (storage as? TypedRecords<R>)?.records
    }

    /// Hands the records, with their type, to `visitor`.
    ///
    /// - Parameter visitor: the work to do with the records.
    /// - Returns: what the visitor returns.
    /// - Throws: what the visitor throws.
    public func accept<V: RecordBatchVisitor>(_ visitor: V) throws(V.Failure) -> V.Output {
        try storage.accept(visitor)
    }
}

/// Code written once for the records of every file, run with their concrete type (see
/// ``RecordBatch/accept(_:)``), so it is specialised per record type instead of going through an existential.
public protocol RecordBatchVisitor {
    /// What the visit gives.
    associatedtype Output
    /// What the visit may throw (`Never` when it cannot fail).
    associatedtype Failure: Error = any Error
    /// Does the work for one batch's records.
    ///
    /// - Parameter records: the batch's records, with their concrete type.
    /// - Returns: the visit's result.
    /// - Throws: what the visit throws.
    func visit<R: GTFSRecord>(_ records: [R]) throws(Failure) -> Output
}

/// The records of a batch behind a type-erased front that still dispatches by type.
private protocol RecordStorage: Sendable {
    func accept<V: RecordBatchVisitor>(_ visitor: V) throws(V.Failure) -> V.Output
}

private struct TypedRecords<R: GTFSRecord>: RecordStorage {
    let records: [R]

    func accept<V: RecordBatchVisitor>(_ visitor: V) throws(V.Failure) -> V.Output {
        try visitor.visit(records)
    }
}
