/// An interval as the tools take it: `30s`, `15m`, `6h`, `1d` (a whole number and a unit; at most a year).
package enum Interval {
    /// The interval `text` says, or `nil` when it is not one.
    package static func duration(_ text: String) -> Duration? {
        let units: [Character: Int] = ["s": 1, "m": 60, "h": 3600, "d": 86400]
        guard let unit = text.last.flatMap({ units[$0] }), let count = Int(text.dropLast()), count > 0, count <= 365 * 86400 / unit else { return nil }
        return .seconds(count * unit)
    }

    /// The interval in seconds.
    package static func seconds(_ text: String) -> Double? { duration(text).map { $0 / .seconds(1) } }

    /// A largest age: an interval, or `none` for no limit (a replay of old messages), which is a century.
    package static func age(_ text: String) -> Double? { text == "none" ? 100 * 365.25 * 86_400 : seconds(text) }
}
