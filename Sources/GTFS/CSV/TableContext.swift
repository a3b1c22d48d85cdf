/// What a table parse knows about its file: name, header mapping, and the warnings so far.
final class TableContext {
    let fileName: String
    let columns: [FieldSpec]
    /// For each column of the record type, its position in the header, or -1 when absent.
    private let map: UnsafeMutablePointer<Int>
    /// Warnings kept in full; past ``maxStoredWarnings`` only ``warningCount`` grows.
    private(set) var warnings: [GTFSWarning] = []
    private(set) var warningCount = 0
    let maxStoredWarnings: Int
    /// The longest identifier and text values accepted (``ParseOptions/maxIDLength``, ``ParseOptions/maxTextLength``).
    let maxIDLength: Int
    let maxTextLength: Int
    /// The first value of the current row longer than its limit: the row is rejected with this error
    /// once decoded (the accessors that read values cannot throw).
    @exclusivity(unchecked) private(set) var oversized: GTFSError?

    init(fileName: String, columns: [FieldSpec], options: ParseOptions) {
        self.fileName = fileName
        self.columns = columns
        self.maxStoredWarnings = options.maxStoredWarnings
        self.maxIDLength = options.maxIDLength
        self.maxTextLength = options.maxTextLength
        map = .allocate(capacity: max(columns.count, 1))
        map.initialize(repeating: -1, count: max(columns.count, 1))
    }

    deinit { map.deallocate() }

    @inline(__always)
    func fieldIndex(ofColumn column: Int) -> Int { map[column] }

    func setFieldIndex(_ field: Int, ofColumn column: Int) { map[column] = field }

    func columnName(_ column: Int) -> String {
        columns.indices.contains(column) ? columns[column].name : "column \(column + 1)"
    }

    /// Notes a value longer than its limit (the first of the row counts).
    func noteOversized(_ column: Int, line: Int, length: Int, limit: Int) {
        guard oversized == nil else { return }
        oversized = GTFSError(
            .invalidValue, file: fileName, line: line, column: columnName(column),
            message: "\(Count.grouped(length)) bytes, longer than the limit of \(Count.grouped(limit))")
    }

    /// The oversized value of the row just decoded, if any, clearing it for the next row.
    @inline(__always)
    func takeOversized() -> GTFSError? {
        guard let error = oversized else { return nil }
        oversized = nil
        return error
    }

    func warn(_ warning: GTFSWarning) {
        warningCount += 1
        if warnings.count < maxStoredWarnings { warnings.append(warning) }
    }
}
