/// What one pass over a line found (see ``CSVRowParser/scan(_:)``).
struct LineScan {
    /// The line holds a double quote: it goes through the quoted path.
    var hasQuote = false
    /// The line holds bytes ≥ 0x80: its UTF-8 is checked.
    var hasHighBytes = false
    /// The line holds a NUL byte: its row is rejected.
    var hasNUL = false
    /// The fast path split the line: the parser holds a complete record.
    var isSplit = false
}
