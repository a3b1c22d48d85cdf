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
    init(fileName: String, columns: [FieldSpec], options: ParseOptions) {
        self.fileName = fileName
        self.columns = columns
        self.maxStoredWarnings = options.maxStoredWarnings
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

    func warn(_ warning: GTFSWarning) {
        warningCount += 1
        if warnings.count < maxStoredWarnings { warnings.append(warning) }
    }
}
