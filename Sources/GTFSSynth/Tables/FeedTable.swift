/// One file of the feed: its name, its header and how its rows are written.
protocol FeedTable {
    /// The file name, e.g. `stops.txt`.
    var fileName: String { get }
    /// The header's column names.
    var columns: [String] { get }
    /// Writes every data row (the header is written by the caller).
    func writeRows(to out: RowBuffer) throws
}
