/// UTF-8 validation and the Windows-1252 fallback used for feeds that are not UTF-8.
enum TextDecoding {
    /// Whether `bytes` are well-formed UTF-8 (no overlongs, surrogates or values past U+10FFFF).
    static func isValidUTF8(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var index = 0
        let count = bytes.count
        while index < count {
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let length: Int
            var lower: UInt8 = 0x80
            var upper: UInt8 = 0xBF
            switch lead {
            case 0xC2 ... 0xDF: length = 2
            case 0xE0: length = 3; lower = 0xA0
            case 0xE1 ... 0xEC, 0xEE ... 0xEF: length = 3
            case 0xED: length = 3; upper = 0x9F
            case 0xF0: length = 4; lower = 0x90
            case 0xF1 ... 0xF3: length = 4
            case 0xF4: length = 4; upper = 0x8F
            default: return false
            }
            guard index + length <= count else { return false }
            let second = bytes[index + 1]
            guard second >= lower && second <= upper else { return false }
            for offset in 2 ..< max(2, length) where bytes[index + offset] & 0xC0 != 0x80 {
                return false
            }
            index += length
        }
        return true
    }

    /// The Unicode scalars of Windows-1252 bytes 0x80…0x9F (0 where the code page leaves a hole).
    private static let windows1252High: [UInt32] = [
        0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017D, 0,
        0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178,
    ]

    /// Appends `bytes`, read as Windows-1252 (Latin-1 with the 0x80…0x9F extras), to `output` as UTF-8.
    static func appendWindows1252(_ bytes: UnsafeRawBufferPointer, to output: inout [UInt8]) {
        for byte in bytes {
            var scalar = UInt32(byte)
            if byte >= 0x80 && byte <= 0x9F {
                let mapped = windows1252High[Int(byte - 0x80)]
                // Holes in the code page map to the C1 control of the same value, as Latin-1 would.
                scalar = mapped == 0 ? UInt32(byte) : mapped
            }
            appendUTF8(scalar, to: &output)
        }
    }

    static func appendUTF8(_ scalar: UInt32, to output: inout [UInt8]) {
        switch scalar {
        case 0 ..< 0x80:
            output.append(UInt8(scalar))
        case 0x80 ..< 0x800:
            output.append(UInt8(0xC0 | scalar >> 6))
            output.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800 ..< 0x10000:
            output.append(UInt8(0xE0 | scalar >> 12))
            output.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            output.append(UInt8(0x80 | scalar & 0x3F))
        default:
            output.append(UInt8(0xF0 | scalar >> 18))
            output.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            output.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            output.append(UInt8(0x80 | scalar & 0x3F))
        }
    }
}
