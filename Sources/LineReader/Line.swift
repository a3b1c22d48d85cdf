/// One line of input, borrowed from the reader's buffer for the duration of a callback.
///
/// `number` and `bytes` cost no allocation: `bytes` points into the reader's chunk buffer
/// and is valid only until the callback returns. Do not store it; call ``owned()`` or
/// ``string`` to keep the content.
///
/// The bytes never include the delimiter, nor the `\r` of a `\r\n` ending. At least
/// ``readablePadding`` bytes after the line's last byte are readable memory of the same buffer (their
/// values are unspecified), so a vectorised scanner may load whole 64-byte blocks without a bounds copy.
public struct Line {
    /// How many bytes past the end of ``bytes`` may be read (never written): 64.
    public static let readablePadding = 64

    /// The 1-based line number; every line counts, empty ones included.
    public let number: Int
    /// The line's bytes, valid only inside the callback that received the line.
    public let bytes: UnsafeRawBufferPointer
    /// For a line longer than the reader's `maxLineLength` when it skips such lines
    /// (``Reader/Options/skipsOverlongLines``): the line's length in bytes, its ``bytes`` then empty (they
    /// were dropped as they arrived, so memory stays bounded). 0 for every other line.
    public let overlongLength: Int

    @usableFromInline
    init(number: Int, bytes: UnsafeRawBufferPointer, overlongLength: Int = 0) {
        self.number = number
        self.bytes = bytes
        self.overlongLength = overlongLength
    }

    /// The number of bytes in the line.
    @inlinable public var count: Int { bytes.count }

    /// Whether the line has no bytes.
    @inlinable public var isEmpty: Bool { bytes.isEmpty }

    /// The line decoded as UTF-8; invalid sequences become U+FFFD. Allocates for lines over 15 bytes.
    public var string: String { String(decoding: bytes, as: UTF8.self) }

    /// A copy that owns its bytes and may outlive the callback or cross threads.
    /// - Returns: the line's number and a copy of its bytes.
    public func owned() -> OwnedLine {
        OwnedLine(number: number, bytes: Array(bytes))
    }
}

@available(*, unavailable, message: "a Line borrows the reader's buffer; use owned() to send it elsewhere")
extension Line: Sendable {}

/// A line that owns its bytes, as delivered by ``Reader/lines``.
public struct OwnedLine: Sendable, Hashable {
    /// The 1-based line number.
    public let number: Int
    /// The line's bytes, without the delimiter or a `\r` before it.
    public let bytes: [UInt8]

    /// Creates a line from its number and bytes.
    ///
    /// - Parameters:
    ///   - number: the 1-based line number.
    ///   - bytes: the line's bytes, without a delimiter.
    public init(number: Int, bytes: [UInt8]) {
        self.number = number
        self.bytes = bytes
    }

    /// The line decoded as UTF-8; invalid sequences become U+FFFD.
    public var string: String { String(decoding: bytes, as: UTF8.self) }
}
