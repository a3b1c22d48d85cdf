import GTFS
import LineReader

/// A test record of three text columns: `id` (required), `name`, `note`.
struct TextRecord: GTFSRecord, Equatable {
    static let file = GTFSFile.levels

    enum Field: Int, GTFSField {
        case id, name, note
        var spec: FieldSpec {
            switch self {
            case .id: FieldSpec("id", .text, .required)
            case .name: FieldSpec("name", .text)
            case .note: FieldSpec("note", .text)
            }
        }
        static let key: [Field] = [.id]
    }

    var id: String
    var name: String?
    var note: String?
    var line: Int

    init(id: String, name: String? = nil, note: String? = nil, line: Int) {
        self.id = id
        self.name = name
        self.note = note
        self.line = line
    }

    init(row: CSVRow<Field>) throws {
        id = try row.requiredText(.id)
        name = row.text(.name)
        note = row.text(.note)
        line = row.line
    }

    func write<Sink: FieldSink>(to sink: inout Sink) {
        sink.write(id)
        sink.write(name)
        sink.write(note)
    }
}

/// Parses CSV text (or bytes) into records and the summary.
func parseCSV<R: GTFSRecord>(
    _ type: R.Type, _ bytes: [UInt8], fileName: String = "test.txt", options: ParseOptions = ParseOptions(),
    chunkSize: Int = 4096
) throws -> ([R], TableSummary) {
    var records: [R] = []
    let reader = try Reader(source: MemorySource(bytes, name: fileName), options: .init(chunkSize: chunkSize))
    var parseOptions = options
    parseOptions.chunkSize = chunkSize
    let summary = try TableParser.parse(type, from: reader, fileName: fileName, options: parseOptions) { records += $0 }
    return (records, summary)
}

/// Parses CSV text into records and the summary.
func parseCSV<R: GTFSRecord>(
    _ type: R.Type, _ text: String, fileName: String = "test.txt", options: ParseOptions = ParseOptions(), chunkSize: Int = 4096
) throws -> ([R], TableSummary) {
    try parseCSV(type, Array(text.utf8), fileName: fileName, options: options, chunkSize: chunkSize)
}
