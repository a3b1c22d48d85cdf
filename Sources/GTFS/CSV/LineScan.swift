/// What one pass over a line found: quotes, bytes ≥ 0x80, NUL. Eight bytes at a time.
struct LineScan {
    var hasQuote = false
    var hasHighBytes = false
    var hasNUL = false

    @inline(__always)
    init(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress else { return }
        let count = bytes.count
        var index = 0
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let quotes: UInt64 = 0x2222_2222_2222_2222
        var high: UInt64 = 0
        var quote: UInt64 = 0
        var zero: UInt64 = 0
        while index + 8 <= count {
            let word = base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            high |= word
            let q = word ^ quotes
            quote |= (q &- ones) & ~q
            zero |= (word &- ones) & ~word
            index += 8
        }
        // `(w - 0x01…) & ~w & 0x80…` is non-zero exactly when some byte of w is zero.
        while index < count {
            let byte = base.load(fromByteOffset: index, as: UInt8.self)
            high |= UInt64(byte)
            let q = UInt64(byte ^ 0x22)
            quote |= (q &- 1) & ~q & 0x80
            let z = UInt64(byte)
            zero |= (z &- 1) & ~z & 0x80
            index += 1
        }
        hasHighBytes = (high & highs) != 0 || (high & 0x80) != 0
        hasQuote = (quote & highs) != 0
        hasNUL = (zero & highs) != 0
    }
}
