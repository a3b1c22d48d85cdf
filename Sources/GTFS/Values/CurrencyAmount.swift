/// An exact decimal amount of money (`2.50`, `-1.2`), kept as an integer of units and a scale so no
/// binary floating point rounding creeps in.
public struct CurrencyAmount: Sendable, Hashable, CustomStringConvertible {
    /// The amount times 10^`scale`, e.g. 250 for `2.50` with scale 2.
    public let units: Int64
    /// The number of decimal places written.
    public let scale: Int

    /// Creates an amount from units and a scale.
    ///
    /// - Parameters:
    ///   - units: the amount times 10^`scale`.
    ///   - scale: the number of decimal places.
    public init(units: Int64, scale: Int) {
        self.units = units
        self.scale = scale
    }

    /// Parses `-12.50`, `3`, `0.5`; `nil` for anything else (no exponent, no thousands separators).
    /// - Parameter text: the amount as GTFS writes it: an optional sign, digits, at most one point, at most
    ///   18 digits in all.
    public init?(_ text: String) {
        var text = text
        guard let amount = text.withUTF8({ CurrencyAmount(bytes: UnsafeRawBufferPointer($0)) }) else { return nil }
        self = amount
    }

    init?(bytes: UnsafeRawBufferPointer) {
        var index = 0
        var negative = false
        if index < bytes.count, bytes[index] == 0x2D || bytes[index] == 0x2B {
            negative = bytes[index] == 0x2D
            index += 1
        }
        var units: Int64 = 0
        var scale = 0
        var digits = 0
        var seenPoint = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x2E && !seenPoint {
                seenPoint = true
            } else if byte >= 0x30 && byte <= 0x39 {
                guard digits < 18 else { return nil }
                units = units * 10 + Int64(byte - 0x30)
                digits += 1
                if seenPoint { scale += 1 }
            } else {
                return nil
            }
            index += 1
        }
        guard digits > 0 else { return nil }
        self.units = negative ? -units : units
        self.scale = scale
    }

    /// The amount as a `Double` (for display or arithmetic where exactness does not matter).
    public var doubleValue: Double {
        var divisor = 1.0
        for _ in 0 ..< scale { divisor *= 10 }
        return Double(units) / divisor
    }

    /// The amount as written, normalised: `-12.50`.
    public var description: String {
        let magnitude = units.magnitude
        var digits = String(magnitude)
        if scale > 0 {
            if digits.count <= scale { digits = String(repeating: "0", count: scale - digits.count + 1) + digits }
            digits.insert(".", at: digits.index(digits.endIndex, offsetBy: -scale))
        }
        return (units < 0 ? "-" : "") + digits
    }
}
