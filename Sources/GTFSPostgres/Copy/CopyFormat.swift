import GTFS

/// The format of a file's `COPY`: binary when its rows hold values in `double precision` columns, text
/// otherwise.
///
/// The server reads a binary double as 8 bytes but parses a text one with `strtod` (the shapes of the
/// VBB-scale feed took twice as long in text); elsewhere text is fewer bytes to send (no length before each
/// field, a short NULL, short integers) for about the same work on the server. Benchmarks/README.md has the
/// figures.
enum CopyFormat: Sendable {
    case text
    case binary

    /// The format for rows whose columns (after `feed`) are of `types` and of which `filled` held a value:
    /// chosen on a file's first batch.
    init(types: [PostgresColumnType], filled: [Bool]) {
        self = zip(types, filled).contains { $0 == .doublePrecision && $1 } ? .binary : .text
    }

    /// The options of `COPY … FROM STDIN`, with `FREEZE` into a table created in the same transaction.
    func options(freeze: Bool) -> String {
        switch (self, freeze) {
        case (.binary, true): " (FORMAT binary, FREEZE)"
        case (.binary, false): " (FORMAT binary)"
        case (.text, true): " (FREEZE)"
        case (.text, false): ""
        }
    }

    /// What the data starts with.
    var header: [UInt8] { self == .binary ? BinaryRowEncoder.header : [] }

    /// What the data ends with.
    var trailer: [UInt8] { self == .binary ? BinaryRowEncoder.trailer : [] }
}

/// Writes records as `COPY` rows of one ``CopyFormat``, converting values to the column types
/// (``PostgresColumnType``) in the client.
protocol CopyRowEncoder: FieldSink {
    /// - Parameter sent: for each column, whether the `COPY` names it; `nil` for all.
    init(types: [PostgresColumnType], sent: [Bool]?)
    /// Starts a row with the feed number.
    mutating func beginRow(feed: Int32)
    /// Hands over the encoded rows and starts again empty.
    mutating func takeBytes() -> [UInt8]
    /// The first value that did not fit its column (its column and the value), kept until the batch is checked.
    var overflow: (column: Int, value: Int)? { get }
    /// The first column that held a value although it is not sent, kept until the batch is checked.
    var unsent: Int? { get }
    /// For each column, whether a row held a value in it (not NULL): a column without values needs no
    /// reference check.
    var filled: [Bool] { get }
}
