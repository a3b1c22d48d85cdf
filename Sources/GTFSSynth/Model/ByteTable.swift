/// Many short byte strings (ids, CSV-ready names) stored back to back in one array, so writing one is a
/// single copy out of a contiguous buffer and storing them costs no allocation per string.
struct ByteTable {
    /// The strings' bytes, back to back.
    private(set) var storage: [UInt8] = []
    /// Where each string ends in ``storage``.
    private(set) var ends: [Int] = []

    /// The number of strings.
    var count: Int { ends.count }

    /// Adds a string's UTF-8 bytes.
    mutating func append(_ text: String) {
        storage.append(contentsOf: text.utf8)
        ends.append(storage.count)
    }

    /// Where string `index` lies in ``storage``.
    @inline(__always)
    func range(_ index: Int) -> Range<Int> {
        (index == 0 ? 0 : ends[index - 1]) ..< ends[index]
    }

    /// String `index` as text (for names built from other names, not for the hot paths).
    func string(_ index: Int) -> String {
        String(decoding: storage[range(index)], as: UTF8.self)
    }

    /// Calls `body` with the bytes of every string available through ``Reader``.
    func withReader<T>(_ body: (Reader) throws -> T) rethrows -> T {
        try storage.withUnsafeBytes { raw in
            try ends.withUnsafeBufferPointer { ends in try body(Reader(raw: raw, ends: ends)) }
        }
    }

    /// Unchecked-by-copy access to the strings while ``withReader(_:)`` runs.
    struct Reader {
        let raw: UnsafeRawBufferPointer
        let ends: UnsafeBufferPointer<Int>

        /// The bytes of string `index`.
        @inline(__always)
        subscript(index: Int) -> UnsafeRawBufferPointer {
            let start = index == 0 ? 0 : ends[index - 1]
            return UnsafeRawBufferPointer(rebasing: raw[start ..< ends[index]])
        }
    }
}
