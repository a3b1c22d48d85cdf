import LineReader
import Platform

/// A problem found in a feed, located as precisely as the input allows.
///
/// Its description reads like a compiler diagnostic:
/// `stops.txt:1207: stop_lat: "52,53" is not a decimal number`.
public struct GTFSError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of problem this is, for programs that react to some kinds.
    public enum Kind: String, Sendable, Hashable {
        /// A value does not have the field's type (number, time, date, color, …).
        case invalidValue
        /// A required value is empty or its column is absent.
        case missingValue
        /// A required column is missing from the header.
        case missingColumn
        /// A column name appears twice in the header.
        case duplicateColumn
        /// A row has more or fewer cells than the header.
        case cellCount
        /// A quoted field is not closed, or text follows a closing quote.
        case malformedCSV
        /// The bytes are not valid text in the expected encoding, or contain NUL.
        case encoding
        /// The file is empty (0 bytes) or has no header.
        case emptyFile
        /// A file of the feed cannot be read (I/O, gzip, zip).
        case unreadable
        /// A rule between fields of one row is broken (conditionally required fields).
        case rule
        /// A row repeats the key of an earlier row of its file, found when storing it: the row is rejected.
        /// ``GTFSError/column`` names the key's columns (`trip_id, stop_sequence`), ``GTFSError/text`` holds
        /// the row's values of them as a tuple (`("608433", 0)`: text quoted, numbers not), and the message
        /// names the line the key first appeared on when the input could be read again to find it
        /// (`repeats line 1231; rejected`; `repeats an earlier row; rejected` from standard input):
        /// `stop_times.txt:1232: (trip_id, stop_sequence) = ("608433", 0) repeats line 1231; rejected`.
        case duplicateKey
        /// An option is out of its range (see ``ParseOptions/validate()``).
        case invalidOption
    }

    /// The kind of problem.
    public let kind: Kind
    /// The file, e.g. `stops.txt`; for an ``Kind/unreadable`` input, the path that was read when it names
    /// the file (`data/stops.txt.gz`, `feed.zip:stops.txt`).
    public let file: String
    /// The 1-based line where the record starts, when known.
    public let line: Int?
    /// The column's name, when the problem concerns one field; a key's columns joined by `, ` for a
    /// ``Kind/duplicateKey``.
    public let column: String?
    /// The offending text, when there is one; a key's values as a tuple for a ``Kind/duplicateKey``.
    public let text: String?
    /// What is wrong, e.g. `is not a decimal number`.
    public let message: String

    /// The most bytes of a value an error quotes: errors are kept by the thousand, values may be megabytes.
    public static let quotedLength = 200

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - kind: the kind of problem.
    ///   - file: the file's name (or the path read, for an ``Kind/unreadable`` input).
    ///   - line: the 1-based line where the record starts, when known.
    ///   - column: the column's name, when the problem concerns one field.
    ///   - text: the offending text, when there is one.
    ///   - message: what is wrong, e.g. `is not a decimal number`.
    public init(_ kind: Kind, file: String, line: Int? = nil, column: String? = nil, text: String? = nil, message: String) {
        self.kind = kind
        self.file = file
        self.line = line
        self.column = column
        self.text = text
        self.message = message
    }

    /// `file:line: column: "text" message`, leaving out the parts that are unknown.
    ///
    /// A ``Kind/duplicateKey`` error with its columns and values reads `file:line: (column) = text message`
    /// instead, its key as an equation of tuples:
    /// `stop_times.txt:1232: (trip_id, stop_sequence) = ("608433", 0) repeats line 1231; rejected`.
    ///
    /// Control characters in the parts that come from the feed are escaped (see ``displayable(_:)``), so
    /// the description is always one line that cannot recolour or retitle a terminal.
    public var description: String {
        var result = Self.displayable(file)
        if let line { result += ":\(line)" }
        result += ": "
        if kind == .duplicateKey, let column, let text {
            // The text is already a tuple of quoted values, which quotes around it would garble.
            result += "(\(Self.displayable(column))) = \(Self.displayable(text)) "
        } else {
            if let column { result += "\(Self.displayable(column)): " }
            if let text { result += "\"\(Self.displayable(text))\" " }
        }
        result += Self.displayable(message)
        return result
    }

    /// Text from a feed made safe to print on one line: control characters (C0, DEL, C1) and the
    /// Unicode controls that reorder text are written as escapes (`\r`, `\n`, `\t`, `\u{1B}`); all
    /// other text is unchanged.
    ///
    /// ```swift
    /// GTFSError.displayable("\u{1B}[31mRED\r")   // "\\u{1B}[31mRED\\r"
    /// ```
    /// - Parameter text: text from a feed.
    /// - Returns: the text with those characters escaped.
    public static func displayable(_ text: some StringProtocol) -> String {
        DisplayText.escaped(text)
    }

    /// A value as an error quotes it: whole, or its first ``quotedLength`` bytes (whole characters) and `…`.
    static func excerpt(_ bytes: UnsafeRawBufferPointer) -> String {
        guard bytes.count > quotedLength else { return String(decoding: bytes, as: UTF8.self) }
        var end = quotedLength
        // Back up to the start of a UTF-8 sequence, so the cut splits no character.
        while end > 0 && bytes[end] & 0xC0 == 0x80 { end -= 1 }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[..<end]), as: UTF8.self) + "…"
    }
}

extension GTFSError {
    /// A file of the feed that could not be read (I/O, gzip, zip), with the reader's explanation, naming the
    /// input once: its path (`data/stops.txt.gz`, `feed.zip:stops.txt`) when that ends with the file's name.
    ///
    /// - Parameters:
    ///   - file: the file's name in the feed.
    ///   - error: what the reader threw.
    /// - Returns: an ``Kind/unreadable`` error.
    static func unreadable(_ file: String, _ error: ReaderError) -> GTFSError {
        guard let source = error.source else { return GTFSError(.unreadable, file: file, message: error.reason) }
        let sameFile = source == file || source.hasSuffix("/" + file) || source.hasSuffix(":" + file)
        if case .lineTooLong(_, let line, let limit) = error {
            // Only a line past the skipping limit ends a file: text without line breaks.
            let message = "a line longer than \(Count.bytes(Int64(limit))): not a table of text lines; nothing after it was read"
            return GTFSError(.unreadable, file: sameFile ? source : file, line: line, message: message)
        }
        if sameFile { return GTFSError(.unreadable, file: source, message: error.reason) }
        return GTFSError(.unreadable, file: file, message: error.description)
    }
}

/// A problem that does not reject data: the value was kept or the row repaired.
///
/// Printed like an error: `stops.txt: platform_nr: unknown column, ignored`.
public typealias GTFSWarning = GTFSError
