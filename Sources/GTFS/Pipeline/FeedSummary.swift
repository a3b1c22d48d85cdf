/// What parsing a whole feed gave.
public struct FeedSummary: Sendable {
    /// One summary per file parsed, in reading order.
    public var tables: [TableSummary] = []
    /// Files outside the reference (extensions such as `directions.txt`, or not CSV tables): not read.
    public var skippedFiles: [String] = []
    /// Feed-level warnings (a table given twice).
    public var warnings: [GTFSWarning] = []
    /// Raw bytes read over all files.
    public var bytesRead: Int64 = 0

    /// The summary of one table, when the feed had it.
    /// - Parameter file: the table.
    /// - Returns: the table's summary, or `nil` when the feed had no such file (or it was not parsed).
    public func table(_ file: GTFSFile) -> TableSummary? {
        tables.first { $0.file == file }
    }
}
