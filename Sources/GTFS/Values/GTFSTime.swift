/// A GTFS service time: `H:MM:SS` or `HH:MM:SS` after "noon minus 12 hours" of the service day,
/// held as seconds. Hours beyond 24 are valid (trips after midnight; real feeds reach `86:52:00`).
public struct GTFSTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Seconds since the start of the service day.
    public let seconds: Int32

    /// Creates a time from seconds since the start of the service day.
    /// - Parameter seconds: seconds since "noon minus 12 hours" of the service day.
    public init(seconds: Int32) { self.seconds = seconds }

    /// Creates a time from its parts; `nil` unless minutes and seconds are 0…59 and hours 0…999.
    ///
    /// - Parameters:
    ///   - hours: 0…999; 24 and more are times on the following days.
    ///   - minutes: 0…59.
    ///   - seconds: 0…59.
    public init?(hours: Int, minutes: Int, seconds: Int) {
        guard (0 ... 999).contains(hours), (0 ... 59).contains(minutes), (0 ... 59).contains(seconds) else { return nil }
        self.seconds = Int32(hours * 3600 + minutes * 60 + seconds)
    }

    /// Parses `H:MM:SS`, `HH:MM:SS` or `HHH:MM:SS`.
    ///
    /// ```swift
    /// GTFSTime("25:03:00")?.seconds // 90180
    /// ```
    /// - Parameter text: the time as GTFS writes it; hours of one to three digits, minutes and seconds of two.
    public init?(_ text: String) {
        var text = text
        guard let time = text.withUTF8({ GTFSTime(bytes: UnsafeRawBufferPointer($0)) }) else { return nil }
        self = time
    }

    /// Parses a time from UTF-8 bytes without allocating.
    @inlinable @inline(__always)
    init?(bytes: UnsafeRawBufferPointer) {
        let count = bytes.count
        #if _endian(little)
        if count == 8, let base = bytes.baseAddress {
            // `HH:MM:SS`, nearly every time of a feed: all eight bytes checked and read in one word.
            guard let seconds = Self.seconds(ofWord: base.loadUnaligned(as: UInt64.self)) else { return nil }
            self.init(seconds: seconds)
            return
        }
        #endif
        guard count >= 7, count <= 9 else { return nil }
        let hourDigits = count - 6
        var hours = 0
        for index in 0 ..< hourDigits {
            let digit = Int(bytes[index]) &- 48
            guard digit >= 0 && digit <= 9 else { return nil }
            hours = hours * 10 + digit
        }
        guard bytes[hourDigits] == 0x3A, bytes[hourDigits + 3] == 0x3A else { return nil }
        let m1 = Int(bytes[hourDigits + 1]) &- 48, m2 = Int(bytes[hourDigits + 2]) &- 48
        let s1 = Int(bytes[hourDigits + 4]) &- 48, s2 = Int(bytes[hourDigits + 5]) &- 48
        guard m1 >= 0 && m1 <= 5, m2 >= 0 && m2 <= 9, s1 >= 0 && s1 <= 5, s2 >= 0 && s2 <= 9 else { return nil }
        self.init(seconds: Int32(hours * 3600 + (m1 * 10 + m2) * 60 + s1 * 10 + s2))
    }

    /// The seconds of `HH:MM:SS` from its eight bytes in a little-endian word (byte 0 lowest).
    @inlinable @inline(__always)
    static func seconds(ofWord word: UInt64) -> Int32? {
        // Digits at bytes 0, 1, 3, 4, 6, 7 and colons at 2 and 5.
        let digitHighNibbles: UInt64 = 0xF0F0_00F0_F000_F0F0
        let colons: UInt64 = 0x0000_FF00_00FF_0000
        guard word & colons == 0x0000_3A00_003A_0000,
            word & digitHighNibbles == 0x3030_0030_3000_3030,
            // 0x30…0x39 plus 6 stays below 0x40; 0x3A…0x3F does not. No byte carries (each is below 0x40).
            (word &+ 0x0606_0006_0600_0606) & digitHighNibbles == 0x3030_0030_3000_3030
        else { return nil }
        let digits = word & 0x0F0F_000F_0F00_0F0F
        func digit(_ index: UInt64) -> Int { Int(truncatingIfNeeded: (digits >> (index * 8)) & 0xFF) }
        let tensOfMinutes = digit(3), tensOfSeconds = digit(6)
        guard tensOfMinutes <= 5, tensOfSeconds <= 5 else { return nil }
        let hours = digit(0) * 10 + digit(1)
        return Int32(truncatingIfNeeded: hours * 3600 + (tensOfMinutes * 10 + digit(4)) * 60 + tensOfSeconds * 10 + digit(7))
    }

    /// Hours, possibly 24 or more.
    public var hours: Int { Int(seconds) / 3600 }
    /// Minutes, 0…59.
    public var minutes: Int { Int(seconds) / 60 % 60 }
    /// Seconds within the minute, 0…59.
    public var secondsOfMinute: Int { Int(seconds) % 60 }

    /// `HH:MM:SS`, hours zero-padded to two digits.
    public var description: String {
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(two(hours)):\(two(minutes)):\(two(secondsOfMinute))"
    }

    /// Orders by seconds.
    /// - Parameters:
    ///   - lhs: a time.
    ///   - rhs: another time.
    /// - Returns: whether `lhs` is earlier than `rhs`.
    public static func < (lhs: GTFSTime, rhs: GTFSTime) -> Bool { lhs.seconds < rhs.seconds }
}
