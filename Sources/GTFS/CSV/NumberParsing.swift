/// Integer and decimal parsing straight from UTF-8 bytes, without building Strings.
enum NumberParsing {
    /// Parses `[+-]digits`; `nil` on anything else or on overflow.
    @inline(__always)
    static func integer(_ bytes: UnsafeRawBufferPointer) -> Int? {
        let count = bytes.count
        guard count > 0 else { return nil }
        var index = 0
        var negative = false
        let first = bytes[0]
        if first == 0x2D || first == 0x2B {
            negative = first == 0x2D
            index = 1
            guard count > 1 else { return nil }
        }
        guard count - index <= 18 else { return wideInteger(bytes) }
        var value = 0
        while index < count {
            let digit = Int(bytes[index]) &- 48
            guard digit >= 0 && digit <= 9 else { return nil }
            value = value &* 10 &+ digit
            index += 1
        }
        return negative ? -value : value
    }

    private static func wideInteger(_ bytes: UnsafeRawBufferPointer) -> Int? {
        Int(String(decoding: bytes, as: UTF8.self))
    }

    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18,
        1e19, 1e20, 1e21, 1e22,
    ]

    /// Parses a decimal number (`52.5377400`, `-3`, `.5`, `1e-3`); `nil` on anything else.
    ///
    /// Plain decimals of up to 15 significant digits take an exact fast path (an integer divided by a
    /// power of ten is correctly rounded); the rest go through the standard library's parser.
    @inline(__always)
    static func decimal(_ bytes: UnsafeRawBufferPointer) -> Double? {
        let count = bytes.count
        guard count > 0, count <= 24 else { return slowDecimal(bytes) }
        var index = 0
        var negative = false
        let first = bytes[0]
        if first == 0x2D || first == 0x2B {
            negative = first == 0x2D
            index = 1
        }
        var mantissa: UInt64 = 0
        var digits = 0
        var fractionDigits = 0
        var seenPoint = false
        var sawDigit = false
        while index < count {
            let byte = bytes[index]
            if byte == 0x2E {
                guard !seenPoint else { return nil }
                seenPoint = true
            } else {
                let digit = UInt64(byte) &- 48
                guard digit <= 9 else { return slowDecimal(bytes) }
                sawDigit = true
                if digits > 0 || digit != 0 { digits += 1 }
                guard digits <= 15 else { return slowDecimal(bytes) }
                mantissa = mantissa &* 10 &+ digit
                if seenPoint { fractionDigits += 1 }
            }
            index += 1
        }
        guard sawDigit else { return nil }
        guard fractionDigits < powersOfTen.count else { return slowDecimal(bytes) }
        let value = Double(mantissa) / powersOfTen[fractionDigits]
        return negative ? -value : value
    }

    private static func slowDecimal(_ bytes: UnsafeRawBufferPointer) -> Double? {
        // The standard parser accepts forms GTFS does not (`inf`, `nan`, hex): refuse those.
        for byte in bytes {
            switch byte {
            case 0x30 ... 0x39, 0x2B, 0x2D, 0x2E, 0x45, 0x65: continue
            default: return nil
            }
        }
        guard let value = Double(String(decoding: bytes, as: UTF8.self)), value.isFinite else { return nil }
        return value
    }
}
