/// Counts written for people in messages (shared by the package's modules and tools).
package enum Count {
    /// `12,793`: digits grouped by three with commas, as the tools print counts.
    package static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var result = value < 0 ? "-" : ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return result
    }
}

extension Count {
    /// `1.2 GB`, `300 MB`, `512 bytes`: a size in decimal units, one decimal below 10.
    package static func bytes(_ value: Int64) -> String {
        let units = ["kB", "MB", "GB", "TB", "PB", "EB"]
        guard value >= 1000 else { return value == 1 ? "1 byte" : "\(value) bytes" }
        var scaled = Double(value) / 1000
        var unit = 0
        while scaled >= 1000 && unit < units.count - 1 {
            scaled /= 1000
            unit += 1
        }
        let text = scaled < 10 ? String((scaled * 10).rounded() / 10) : String(Int(scaled.rounded()))
        return text + " " + units[unit]
    }
}
