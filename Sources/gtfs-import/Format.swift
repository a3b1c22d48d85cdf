/// Number and time formats for people.
enum Format {
    /// `12,793`.
    static func count(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return (value < 0 ? "-" : "") + result
    }

    /// `0:04`, `1:02:03`.
    static func clock(_ duration: Duration) -> String {
        let total = max(0, Int(duration.components.seconds))
        let (hours, minutes, seconds) = (total / 3600, total / 60 % 60, total % 60)
        let two = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
        return hours > 0 ? "\(hours):\(two(minutes)):\(two(seconds))" : "\(minutes):\(two(seconds))"
    }

    /// `1.23 s`.
    static func seconds(_ duration: Duration) -> String {
        let hundredths = Int((duration / .milliseconds(10)).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction) s"
    }
}
