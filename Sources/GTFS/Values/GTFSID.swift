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

    /// The length byte of an inline text, 0–23. Its 232 unused values leave room for the enum's tag, so a
    /// `GTFSID` (and a `GTFSID?`) is 24 bytes, not 25 padded to 32.
    @usableFromInline
    enum InlineLength: UInt8, Sendable {
        case l0, l1, l2, l3, l4, l5, l6, l7, l8, l9, l10, l11, l12, l13, l14, l15, l16, l17, l18, l19, l20, l21, l22, l23
    }

    @usableFromInline
    enum Storage: Sendable {
        /// Bytes 0–22 of the text in memory order across three words, then zeros; the last byte is the
        /// length. Only texts of at most ``inlineCapacity`` bytes, and every such text. The third word is
        /// split so that its top byte can be ``InlineLength`` (see ``inline(_:)`` and ``lastWord(_:_:_:_:)``).
        case inline(UInt64, UInt64, UInt32, UInt16, UInt8, InlineLength)
        /// Texts longer than ``inlineCapacity`` bytes.
        case heap(String)

        /// The inline case for three words in the inline layout (the length byte at most 23).
        @inlinable
        static func inline(_ words: (UInt64, UInt64, UInt64)) -> Storage {
            let last = words.2
            let length = UInt8(truncatingIfNeeded: last >> 56)
            // The callers put a length of at most 23 in the top byte: a valid `InlineLength`.
            return .inline(
                words.0, words.1, UInt32(truncatingIfNeeded: last), UInt16(truncatingIfNeeded: last >> 32),
                UInt8(truncatingIfNeeded: last >> 48), unsafeBitCast(length, to: InlineLength.self))
        }

        /// The inline case for three words in the inline layout when their text is ASCII (no byte ≥ 0x80;
        /// the length byte is at most 23), which is valid UTF-8 as it is; `nil` otherwise.
        @inlinable @inline(__always)
        static func inline(ascii words: (UInt64, UInt64, UInt64)) -> Storage? {
            (words.0 | words.1 | words.2) & 0x8080_8080_8080_8080 == 0 ? .inline(words) : nil
        }

        /// The third word of an inline text from its parts.
        @inlinable
        static func lastWord(_ low: UInt32, _ middle: UInt16, _ high: UInt8, _ length: InlineLength) -> UInt64 {
            UInt64(low) | UInt64(middle) << 32 | UInt64(high) << 48 | UInt64(length.rawValue) << 56
        }
    }

    @usableFromInline
    let storage: Storage

    /// The identifier with this text.
    /// - Parameter text: the identifier's text.
    @inlinable
    public init(_ text: String) {
        var utf8 = text
        let words = utf8.withUTF8 { $0.count <= Self.inlineCapacity ? Self.words(UnsafeRawBufferPointer($0)) : nil }
        storage = words.map { .inline($0) } ?? .heap(text)
    }

    /// The identifier whose UTF-8 text is `bytes`; invalid UTF-8 is repaired as `String(decoding:as:)` does.
    /// - Parameter bytes: UTF-8 text, e.g. a cell of a CSV row.
    @inlinable
    public init(utf8 bytes: UnsafeRawBufferPointer) {
        if bytes.count <= Self.inlineCapacity, let storage = Storage.inline(ascii: Self.words(bytes)) {
            self.init(storage: storage)
            return
        }
        self.init(String(decoding: bytes, as: UTF8.self))
    }

    /// As ``init(utf8:)``, for bytes followed by at least 24 readable bytes (a field of a padded line):
    /// a short id is three word loads, masked, instead of a copy.
    @inlinable @inline(__always)
    init(paddedUTF8 bytes: UnsafeRawBufferPointer) {
        #if _endian(little)
        let count = bytes.count
        if count <= Self.inlineCapacity, let base = bytes.baseAddress {
            let words = (
                base.loadUnaligned(as: UInt64.self) & Self.lowBytes(count),
                base.loadUnaligned(fromByteOffset: 8, as: UInt64.self) & Self.lowBytes(count - 8),
                base.loadUnaligned(fromByteOffset: 16, as: UInt64.self) & Self.lowBytes(count - 16)
                    | UInt64(truncatingIfNeeded: count) << 56
            )
            if let storage = Storage.inline(ascii: words) {
                self.init(storage: storage)
                return
            }
        }
        #endif
        self.init(utf8: bytes)
    }

    /// A mask of the low `count` bytes of a word (none below 1, all from 8 up).
    @inlinable
    static func lowBytes(_ count: Int) -> UInt64 {
        count >= 8 ? ~0 : count <= 0 ? 0 : (1 &<< UInt64(truncatingIfNeeded: count &* 8)) &- 1
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
        case .inline(_, _, _, _, _, let length): Int(length.rawValue)
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
        case .inline(let first, let second, let low, let middle, let high, let length):
            var words = (first, second, Storage.lastWord(low, middle, high, length))
            return try withUnsafeBytes(of: &words) { raw in
                try body(UnsafeBufferPointer(start: raw.baseAddress?.assumingMemoryBound(to: UInt8.self), count: Int(length.rawValue)))
            }
        case .heap(var text):
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
    /// - Parameters:
    ///   - lhs: an identifier.
    ///   - rhs: another identifier.
    /// - Returns: `true` when their UTF-8 bytes are equal.
    @inlinable
    public static func == (lhs: GTFSID, rhs: GTFSID) -> Bool {
        switch (lhs.storage, rhs.storage) {
        case let (.inline(a0, a1, a2, a3, a4, a5), .inline(b0, b1, b2, b3, b4, b5)):
            a0 == b0 && a1 == b1 && a2 == b2 && a3 == b3 && a4 == b4 && a5 == b5
        case let (.heap(a), .heap(b)): a.utf8.elementsEqual(b.utf8)
        default: false  // a text has one representation: inline exactly when it fits
        }
    }

    /// Hashes the bytes.
    /// - Parameter hasher: the hasher to feed.
    @inlinable
    public func hash(into hasher: inout Hasher) {
        withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// Byte order of the UTF-8 texts (SQLite's `BINARY` collation; for ASCII the same as `String`'s `<`).
    /// - Parameters:
    ///   - lhs: an identifier.
    ///   - rhs: another identifier.
    /// - Returns: whether `lhs` sorts before `rhs`.
    @inlinable
    public static func < (lhs: GTFSID, rhs: GTFSID) -> Bool {
        lhs.withUTF8 { left in
            rhs.withUTF8 { right in left.lexicographicallyPrecedes(right) }
        }
    }
}

extension GTFSID: Codable {
    /// Decodes the identifier from a string.
    /// - Parameter decoder: the decoder holding a single string.
    /// - Throws: `DecodingError` when the value is not a string.
    public init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode(String.self))
    }

    /// Encodes the identifier as a string.
    /// - Parameter encoder: the encoder to write the string to.
    /// - Throws: what the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
