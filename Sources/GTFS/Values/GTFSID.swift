/// An identifier from a feed (`stop_id`, `trip_id`, `shape_id`, …): UTF-8 text, held inline when it is at
/// most 23 bytes long, so that reading one from a row allocates nothing.
///
/// Swift's `String` keeps at most 15 UTF-8 bytes inline; a typical VBB stop id (`de:12054:900157843::9`,
/// 21 bytes) would cost one heap allocation per `stop_times.txt` row to create and one free to drop. A
/// `GTFSID` of up to 23 bytes is three machine words; a longer one keeps a `String`.
///
/// It reads and compares like text: create one from a literal or a `String`, get the text back with
/// ``description`` (or `String(id)`), compare with `==` (same bytes) and `<` (byte order, as SQLite's
/// `BINARY` collation sorts).
///
/// ```swift
/// let id: GTFSID = "de:11000:900100001::4"
/// id.utf8Count            // 21
/// String(id) == "de:11000:900100001::4"   // true
/// stopTime.stopID == "de:11000:900100001::4"
/// ```
public struct GTFSID: Sendable {
    /// The most bytes held inline.
    public static let inlineCapacity = 23

    @usableFromInline
    enum Storage: Sendable {
        /// Bytes 0–22 of the text in memory order across the three words, then zeros; the last byte of the
        /// last word is the length. Only texts of at most ``inlineCapacity`` bytes, and every such text.
        case inline(UInt64, UInt64, UInt64)
        /// Texts longer than ``inlineCapacity`` bytes.
        case heap(String)
    }

    @usableFromInline
    let storage: Storage

    /// The identifier with this text.
    /// - Parameter text: the identifier's text.
    @inlinable
    public init(_ text: String) {
        var utf8 = text
        let words = utf8.withUTF8 { $0.count <= Self.inlineCapacity ? Self.words(UnsafeRawBufferPointer($0)) : nil }
        storage = words.map { .inline($0.0, $0.1, $0.2) } ?? .heap(text)
    }

    /// The identifier whose UTF-8 text is `bytes`; invalid UTF-8 is repaired as `String(decoding:as:)` does.
    /// - Parameter bytes: UTF-8 text, e.g. a cell of a CSV row.
    @inlinable
    public init(utf8 bytes: UnsafeRawBufferPointer) {
        if bytes.count <= Self.inlineCapacity {
            let words = Self.words(bytes)
            // ASCII (no byte ≥ 0x80; the length byte is at most 23) is valid UTF-8 as it is.
            if (words.0 | words.1 | words.2) & 0x8080_8080_8080_8080 == 0 {
                self.init(storage: .inline(words.0, words.1, words.2))
                return
            }
        }
        self.init(String(decoding: bytes, as: UTF8.self))
    }

    @inlinable
    init(storage: Storage) {
        self.storage = storage
    }

    /// At most ``inlineCapacity`` bytes in the inline layout: the bytes, zeros, the length in the last byte.
    @inlinable
    static func words(_ bytes: UnsafeRawBufferPointer) -> (UInt64, UInt64, UInt64) {
        var words: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &words) { raw in
            if let base = bytes.baseAddress, let destination = raw.baseAddress {
                destination.copyMemory(from: base, byteCount: bytes.count)
            }
        }
        words.2 |= UInt64(truncatingIfNeeded: bytes.count) << 56
        return words
    }

    /// The number of UTF-8 bytes of the text.
    @inlinable
    public var utf8Count: Int {
        switch storage {
        case .inline(_, _, let last): Int(truncatingIfNeeded: last >> 56)
        case .heap(let text): text.utf8.count
        }
    }

    /// Whether the text is empty.
    @inlinable
    public var isEmpty: Bool { utf8Count == 0 }

    /// Calls `body` with the UTF-8 bytes of the text (valid only during the call).
    /// - Parameter body: reads the bytes.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws.
    @inlinable
    public func withUTF8<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        switch storage {
        case .inline(let first, let second, let last):
            var words = (first, second, last)
            let count = Int(truncatingIfNeeded: last >> 56)
            return try withUnsafeBytes(of: &words) { raw in
                try body(UnsafeBufferPointer(start: raw.baseAddress?.assumingMemoryBound(to: UInt8.self), count: count))
            }
        case .heap(let text):
            var text = text
            return try text.withUTF8(body)
        }
    }
}

extension GTFSID: CustomStringConvertible, LosslessStringConvertible, ExpressibleByStringLiteral {
    /// The identifier's text.
    public var description: String {
        switch storage {
        case .inline: withUTF8 { String(decoding: $0, as: UTF8.self) }
        case .heap(let text): text
        }
    }

    /// The identifier with this literal text.
    /// - Parameter value: the text.
    @inlinable
    public init(stringLiteral value: String) {
        self.init(value)
    }
}

extension GTFSID: Hashable, Comparable {
    /// Whether both have the same bytes.
    @inlinable
    public static func == (lhs: GTFSID, rhs: GTFSID) -> Bool {
        switch (lhs.storage, rhs.storage) {
        case let (.inline(a0, a1, a2), .inline(b0, b1, b2)): a0 == b0 && a1 == b1 && a2 == b2
        case let (.heap(a), .heap(b)): a.utf8.elementsEqual(b.utf8)
        default: false  // a text has one representation: inline exactly when it fits
        }
    }

    /// Hashes the bytes.
    @inlinable
    public func hash(into hasher: inout Hasher) {
        withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// Byte order of the UTF-8 texts (SQLite's `BINARY` collation; for ASCII the same as `String`'s `<`).
    @inlinable
    public static func < (lhs: GTFSID, rhs: GTFSID) -> Bool {
        lhs.withUTF8 { left in
            rhs.withUTF8 { right in left.lexicographicallyPrecedes(right) }
        }
    }
}

extension GTFSID: Codable {
    /// Decodes the identifier from a string.
    /// - Throws: `DecodingError` when the value is not a string.
    public init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode(String.self))
    }

    /// Encodes the identifier as a string.
    /// - Throws: what the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
