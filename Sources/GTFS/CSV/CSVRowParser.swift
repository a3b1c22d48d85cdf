import CLineScan
import LineReader

/// Splits CSV records into fields, RFC 4180 as GTFS feeds use it.
///
/// Rows without a quote take the fast path (``scan(_:)``): fields are spans of the line itself, nothing is
/// copied. Rows with quotes are unescaped into an owned buffer (``parseQuoted(_:)``); a quoted field may
/// span lines, in which case the parser answers ``Outcome/needsMoreInput`` until the quote closes. Unquoted fields are
/// trimmed of surrounding spaces; quoted fields are kept exactly (line breaks inside become `\n`).
final class CSVRowParser {
    /// What parsing a line gave.
    enum Outcome: Equatable {
        /// A complete record: read it with ``field(_:)``.
        case record
        /// A quoted field is still open: feed the next line.
        case needsMoreInput
        /// The record is malformed.
        case malformed(String)
    }

    /// The longest record accepted while a quoted field stays open, so one stray quote cannot swallow a
    /// file (``ParseOptions/maxLineLength``).
    var maxRecordLength = ParseOptions().maxLineLength

    /// Readable bytes after every field, in a line and in the owned buffer alike, so that a field's value
    /// may be read in whole words (see `GTFSID.init(paddedUTF8:)`).
    static let readablePadding = Line.readablePadding

    private(set) var fieldCount = 0
    private var fields: UnsafeMutablePointer<FieldSpan>
    private var fieldCapacity = 64
    private var base: UnsafeRawPointer?

    // The owned buffer for quoted records.
    private var owned: UnsafeMutableRawPointer
    private var ownedCapacity = 4096
    private var ownedCount = 0

    // State carried across the lines of one record.
    private var inQuotedField = false
    private(set) var isContinuing = false

    init() {
        fields = .allocate(capacity: fieldCapacity)
        owned = .allocate(byteCount: ownedCapacity + Self.readablePadding, alignment: 16)
    }

    deinit {
        fields.deallocate()
        owned.deallocate()
    }

    /// The bytes of field `index` of the last complete record.
    @inline(__always)
    func field(_ index: Int) -> UnsafeRawBufferPointer {
        let span = fields[index]
        return UnsafeRawBufferPointer(start: base.map { $0 + Int(span.start) }, count: Int(span.end - span.start))
    }

    /// One pass over a line, 64 bytes at a time: finds quotes, bytes ≥ 0x80 and NUL, and — when the line
    /// holds no quote and no quoted record is open — splits it into fields on the way (the fast path: the
    /// fields are spans of the line itself, and the record is complete when ``LineScan/isSplit``).
    ///
    /// - Parameter line: the line's bytes, without its terminator, followed by at least
    ///   `Line.readablePadding` (64) readable bytes, as every line of a `Reader` is: the last block is
    ///   classified in place and the bits past the line are masked off.
    @inline(__always)
    func scan(_ line: UnsafeRawBufferPointer) -> LineScan {
        var result = LineScan()
        let splitting = !isContinuing
        if splitting {
            base = UnsafeRawPointer(line.baseAddress)
            fieldCount = 0
        }
        guard let start = line.baseAddress, line.count > 0 else {
            if splitting {
                appendField(0, 0)
                result.isSplit = true
            }
            return result
        }
        let count = line.count
        var offset = 0
        var fieldStart = 0
        var quotes: UInt64 = 0
        var highs: UInt64 = 0
        var nuls: UInt64 = 0
        while offset < count {
            let blockLength = count - offset
            let classes = CLineScan_classify64(start.assumingMemoryBound(to: UInt8.self) + offset)
            let valid: UInt64 = blockLength >= 64 ? ~0 : (1 << UInt64(blockLength)) &- 1
            quotes |= classes.quotes & valid
            highs |= classes.highs & valid
            nuls |= classes.nuls & valid
            if splitting && quotes == 0 {
                var commas = classes.commas & valid
                while commas != 0 {
                    let comma = offset + commas.trailingZeroBitCount
                    appendTrimmed(start, fieldStart, comma)
                    fieldStart = comma + 1
                    commas &= commas &- 1
                }
            }
            offset += 64
        }
        result.hasQuote = quotes != 0
        result.hasHighBytes = highs != 0
        result.hasNUL = nuls != 0
        if splitting && quotes == 0 {
            appendTrimmed(start, fieldStart, count)
            result.isSplit = true
        }
        return result
    }

    /// Drops a record left open (after an error or at the end of the input).
    func reset() {
        isContinuing = false
        inQuotedField = false
        ownedCount = 0
        fieldCount = 0
    }

    // MARK: - Fast path helpers

    @inline(__always)
    private func appendTrimmed(_ start: UnsafeRawPointer, _ from: Int, _ to: Int) {
        var lower = from
        var upper = to
        while lower < upper && start.load(fromByteOffset: lower, as: UInt8.self) == 0x20 { lower += 1 }
        while upper > lower && start.load(fromByteOffset: upper - 1, as: UInt8.self) == 0x20 { upper -= 1 }
        appendField(lower, upper)
    }

    @inline(__always)
    private func appendField(_ start: Int, _ end: Int) {
        if fieldCount == fieldCapacity { growFields() }
        fields[fieldCount] = FieldSpan(start: Int32(truncatingIfNeeded: start), end: Int32(truncatingIfNeeded: end))
        fieldCount += 1
    }

    private func growFields() {
        let grown = UnsafeMutablePointer<FieldSpan>.allocate(capacity: fieldCapacity * 2)
        grown.update(from: fields, count: fieldCount)
        fields.deallocate()
        fields = grown
        fieldCapacity *= 2
    }

    // MARK: - Quoted path

    /// Where the current field's unescaped bytes begin in `owned`.
    private var currentFieldStart = 0
    /// Whether the current field began with a quote (so it is not trimmed).
    private var currentFieldQuoted = false
    /// After a closing quote, only spaces may come before the comma.
    private var afterClosingQuote = false

    /// Parses a line with quotes (or the next line of an open quoted record), unescaping into the parser's
    /// own buffer: a whole record, or ``Outcome/needsMoreInput`` while a quoted field stays open.
    func parseQuoted(_ line: UnsafeRawBufferPointer) -> Outcome {
        if !isContinuing {
            ownedCount = 0
            fieldCount = 0
            beginField()
        } else {
            // The line break inside the quoted field is part of its value.
            appendOwned(0x0A)
        }
        isContinuing = true
        for byte in line {
            if inQuotedField {
                if byte == 0x22 {
                    inQuotedField = false
                    afterClosingQuote = true
                } else {
                    appendOwned(byte)
                }
                continue
            }
            if afterClosingQuote {
                switch byte {
                case 0x22:
                    // `""` inside a quoted field: one literal quote, and the field goes on.
                    appendOwned(0x22)
                    inQuotedField = true
                    afterClosingQuote = false
                case 0x2C:
                    endField()
                    beginField()
                case 0x20:
                    continue
                default:
                    reset()
                    return .malformed("text after the closing quote of a field")
                }
                continue
            }
            switch byte {
            case 0x2C:
                endField()
                beginField()
            case 0x22 where ownedCount == currentFieldStart:
                // An opening quote (spaces before it were skipped).
                currentFieldQuoted = true
                inQuotedField = true
            case 0x20 where ownedCount == currentFieldStart:
                continue
            default:
                // Text, including a stray quote inside an unquoted field, is kept as it is.
                appendOwned(byte)
            }
        }
        if inQuotedField {
            if ownedCount > maxRecordLength {
                reset()
                return .malformed("a quoted field is not closed within \(Count.grouped(maxRecordLength)) bytes")
            }
            return .needsMoreInput
        }
        // A caller's reader may pass lines longer than the limit, and Windows-1252 text grows as it is
        // decoded: field offsets are 32-bit, so an unescaped record never exceeds the limit.
        if ownedCount > maxRecordLength {
            reset()
            return .malformed("the record is longer than \(Count.grouped(maxRecordLength)) bytes")
        }
        endField()
        isContinuing = false
        afterClosingQuote = false
        base = UnsafeRawPointer(owned)
        return .record
    }

    /// Reports a record left open when the input ends.
    func endOfInput() -> Outcome? {
        guard isContinuing else { return nil }
        reset()
        return .malformed("a quoted field is not closed before the end of the file")
    }

    private func beginField() {
        currentFieldStart = ownedCount
        currentFieldQuoted = false
        afterClosingQuote = false
    }

    private func endField() {
        var end = ownedCount
        if !currentFieldQuoted {
            while end > currentFieldStart && owned.load(fromByteOffset: end - 1, as: UInt8.self) == 0x20 { end -= 1 }
        }
        appendField(currentFieldStart, end)
    }

    @inline(__always)
    private func appendOwned(_ byte: UInt8) {
        if ownedCount == ownedCapacity {
            let grown = UnsafeMutableRawPointer.allocate(byteCount: ownedCapacity * 2 + Self.readablePadding, alignment: 16)
            grown.copyMemory(from: owned, byteCount: ownedCount)
            owned.deallocate()
            owned = grown
            ownedCapacity *= 2
        }
        owned.storeBytes(of: byte, toByteOffset: ownedCount, as: UInt8.self)
        ownedCount += 1
    }
}
