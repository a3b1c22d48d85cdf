/// What parsing one file gave: counts, the rejected rows' errors, and warnings.
///
/// Integrity holds for every file: `rowsParsed + rowsRejected == rowsRead`.
public struct TableSummary: Sendable {
    /// The file's name as the feed spells it.
    public let fileName: String
    /// The table, when the file is one of the reference.
    public let file: GTFSFile?
    /// Data records read (the header, blank lines and the lines inside a multi-line record not counted).
    public var rowsRead = 0
    /// Records delivered.
    public var rowsParsed = 0
    /// Records rejected.
    public var rowsRejected = 0
    /// The errors of rejected records (the first ``ParseOptions/maxStoredErrors``).
    public var errors: [GTFSError] = []
    /// Warnings: unknown columns, padded rows, encoding fallback, malformed URLs… (the first ``ParseOptions/maxStoredWarnings``).
    public var warnings: [GTFSWarning] = []
    /// All warnings, stored or not.
    public var warningCount = 0
    /// Raw input bytes read (compressed bytes for gzip and zip).
    public var bytesRead: Int64 = 0

    /// The SHA-256 of the file's decoded content (64 hex digits) when ``ParseOptions/hashesContent`` is set
    /// and the file was read to its end.
    public var contentHash: String?

    /// Creates an empty summary for a file.
    ///
    /// - Parameters:
    ///   - fileName: the file's name as the feed spells it.
    ///   - file: the table, or `nil` for a file outside the reference.
    init(fileName: String, file: GTFSFile?) {
        self.fileName = fileName
        self.file = file
    }
}
