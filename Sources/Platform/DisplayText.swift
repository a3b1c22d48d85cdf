/// Text from outside (a feed, a file name) made safe to print on one line of a terminal.
package enum DisplayText {
    /// `text` with control characters (C0, DEL, C1) and the Unicode controls that reorder text written as
    /// escapes (`\r`, `\n`, `\t`, `\u{1B}`); all other text unchanged.
    package static func escaped(_ text: some StringProtocol) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return String(text) }
        var result = ""
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar) else {
                result.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default: result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            }
        }
        return result
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00 ... 0x1F, 0x7F ... 0x9F, 0x200E, 0x200F, 0x202A ... 0x202E, 0x2066 ... 0x2069: true
        default: false
        }
    }
}
