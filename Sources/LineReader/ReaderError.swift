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

    /// A one-line, human-readable explanation: the input's name, then ``reason``.
    public var description: String {
        source.map { "\($0): \(reason)" } ?? reason
    }

    /// The input the error concerns; `nil` for an invalid option.
    public var source: String? {
        switch self {
        case .invalidChunkSize, .invalidMaxLineLength: nil
        case .lineTooLong(let source, _, _), .io(let source, _, _), .corruptCompressedData(let source, _, _, _),
            .truncatedCompressedData(let source, _, _):
            source
        }
    }

    /// What went wrong, without the input's name: `truncated gzip data: the input ends at compressed byte …`.
    public var reason: String {
        switch self {
        case .invalidChunkSize(let size):
            "invalid chunk size \(size): it must be 1 to \(Reader.Options.maxChunkSize) bytes"
        case .invalidMaxLineLength(let limit):
            "invalid maximum line length \(limit): it must be 1 to \(Reader.Options.maxLineLengthLimit) bytes"
        case .lineTooLong(_, let lineNumber, let limit):
            "line \(lineNumber) is longer than the limit of \(limit) bytes"
        case .io(_, let operation, let code):
            "cannot \(operation): \(System.message(forErrno: code)) (errno \(code))"
        case .corruptCompressedData(_, let format, let offset, let reason):
            "corrupt \(format) data at compressed byte \(offset): \(reason)"
        case .truncatedCompressedData(_, let format, let offset):
            "truncated \(format) data: the input ends at compressed byte \(offset) inside "
                + (format == "gzip" ? "a gzip member" : "the \(format) stream")
        }
    }
}
