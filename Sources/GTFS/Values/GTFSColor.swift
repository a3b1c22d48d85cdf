/// A color as six hexadecimal digits (`FFD800`), without `#`.
public struct GTFSColor: Sendable, Hashable, CustomStringConvertible {
    /// The color as `0xRRGGBB`.
    public let rgb: UInt32

    /// Creates a color from `0xRRGGBB`.
    /// - Parameter rgb: the color; bits above the lowest 24 are ignored.
    public init(rgb: UInt32) { self.rgb = rgb & 0xFF_FFFF }

    /// Parses six hex digits, upper or lower case; `nil` otherwise.
    /// - Parameter text: the color as GTFS writes it (`FFD800`), without `#`.
    public init?(_ text: String) {
        var text = text
        guard let color = text.withUTF8({ GTFSColor(bytes: UnsafeRawBufferPointer($0)) }) else { return nil }
        self = color
    }

    init?(bytes: UnsafeRawBufferPointer) {
        guard bytes.count == 6 else { return nil }
        var value: UInt32 = 0
        for byte in bytes {
            let digit: UInt32
            switch byte {
            case 0x30 ... 0x39: digit = UInt32(byte - 0x30)
            case 0x41 ... 0x46: digit = UInt32(byte - 0x41 + 10)
            case 0x61 ... 0x66: digit = UInt32(byte - 0x61 + 10)
            default: return nil
            }
            value = value << 4 | digit
        }
        rgb = value
    }

    /// Six upper-case hex digits.
    public var description: String {
        let hex = String(rgb, radix: 16, uppercase: true)
        return String(repeating: "0", count: 6 - hex.count) + hex
    }
}
