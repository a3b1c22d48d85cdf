/// Light format checks for text-typed GTFS fields. They flag obvious mistakes; they are not validators.
enum TextChecks {
    static func isURL(_ text: String) -> Bool {
        let lower = text.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else { return false }
        let rest = lower.drop(while: { $0 != "/" }).dropFirst(2)
        return !rest.isEmpty && !text.contains(" ")
    }

    static func isEmail(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && parts[1].contains(".") && !text.contains(" ")
    }

    static func isPhoneNumber(_ text: String) -> Bool {
        text.contains(where: \.isNumber)
    }

    static func isTimezone(_ text: String) -> Bool {
        guard !text.contains(" ") else { return false }
        return text == "UTC" || text == "GMT" || text.contains("/")
    }

    static func isLanguageCode(_ text: String) -> Bool {
        let subtags = text.split(separator: "-", omittingEmptySubsequences: false)
        guard let primary = subtags.first, (2 ... 8).contains(primary.count), primary.allSatisfy(\.isLetter) else { return false }
        return subtags.dropFirst().allSatisfy { (1 ... 8).contains($0.count) && $0.allSatisfy { $0.isLetter || $0.isNumber } }
    }

    static func isCurrencyCode(_ text: String) -> Bool {
        text.utf8.count == 3 && text.utf8.allSatisfy { ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) }
    }
}
