import GTFS

/// One file of the feed: the fields it fills (a subset of its record's, in header order) and how its rows
/// are written. Its name and header come from the record's description.
protocol FeedTable {
    /// The record type of the file.
    associatedtype Record: GTFSRecord
    /// The fields written, in column order.
    var fields: [Record.Field] { get }
    /// Writes every data row (the header is written by the caller).
    func writeRows(to out: RowBuffer) throws
}

extension FeedTable {
    /// The file name, e.g. `stops.txt`.
    var fileName: String { Record.file.fileName }
    /// The header's column names.
    var columns: [String] { fields.map(\.spec.name) }
}

extension FeedModel {
    /// The tables in writing order: GTFS load order, referenced tables first.
    var tables: [any FeedTable] {
        [
            FeedInfoTable(model: self), AgencyTable(model: self), LevelsTable(model: self), StopsTable(model: self),
            RoutesTable(model: self), CalendarTable(model: self), CalendarDatesTable(model: self),
            ShapesTable(model: self), TripsTable(model: self), StopTimesTable(model: self),
            TransfersTable(model: self),
        ]
    }
}
