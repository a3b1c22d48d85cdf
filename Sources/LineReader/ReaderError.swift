import Platform

/// An error thrown while configuring a ``Reader`` or reading its input.
///
/// Every case names the input it concerns, so its ``description`` reads as one
/// clear line, for example `stops.txt.gz: corrupt gzip data at compressed byte 4812: invalid block type`.
public enum ReaderError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The chunk size is zero, negative or larger than ``Reader/Options/maxChunkSize``.
    case invalidChunkSize(Int)
    /// The maximum line length is zero, negative or larger than ``Reader/Options/maxLineLengthLimit``.
    case invalidMaxLineLength(Int)
    /// A line is longer than the configured limit.
    ///
    /// - Parameters:
    ///   - source: the name of the input (its path, `<stdin>`, …).
    ///   - lineNumber: the 1-based number of the offending line.
    ///   - limit: the configured `maxLineLength` in bytes.
    case lineTooLong(source: String, lineNumber: Int, limit: Int)
    /// A system call failed.
    ///
    /// - Parameters:
    ///   - source: the path or name of the input.
    ///   - operation: what was attempted (`open`, `read`, `stat`).
    ///   - errno: the C `errno` value.
    case io(source: String, operation: String, errno: Int32)
    /// The compressed stream is damaged.
    ///
    /// - Parameters:
    ///   - source: the path or name of the input.
    ///   - format: `gzip` or `deflate` (a zip entry).
    ///   - offset: the compressed byte offset at which zlib gave up.
    ///   - reason: zlib's message.
    case corruptCompressedData(source: String, format: String, offset: Int64, reason: String)
    /// The compressed stream ends in the middle: some output would be missing.
    ///
    /// - Parameters:
    ///   - source: the path or name of the input.
    ///   - format: `gzip` or `deflate` (a zip entry).
    ///   - offset: the compressed byte count at which the input ended.
    case truncatedCompressedData(source: String, format: String, offset: Int64)

    /// A one-line, human-readable explanation.
    public var description: String {
        switch self {
        case .invalidChunkSize(let size):
            return "invalid chunk size \(size): it must be 1 to \(Reader.Options.maxChunkSize) bytes"
        case .invalidMaxLineLength(let limit):
            return "invalid maximum line length \(limit): it must be 1 to \(Reader.Options.maxLineLengthLimit) bytes"
        case .lineTooLong(let source, let lineNumber, let limit):
            return "\(source): line \(lineNumber) is longer than the limit of \(limit) bytes"
        case .io(let source, let operation, let code):
            return "\(source): cannot \(operation): \(Self.message(forErrno: code)) (errno \(code))"
        case .corruptCompressedData(let source, let format, let offset, let reason):
            return "\(source): corrupt \(format) data at compressed byte \(offset): \(reason)"
        case .truncatedCompressedData(let source, let format, let offset):
            let unit = format == "gzip" ? "a gzip member" : "the \(format) stream"
            return "\(source): truncated \(format) data: the input ends at compressed byte \(offset) inside \(unit)"
        }
    }

    /// The C library's text for an `errno` value.
    static func message(forErrno code: Int32) -> String {
        System.message(forErrno: code)
    }
}
