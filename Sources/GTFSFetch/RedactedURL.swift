public import Foundation

/// A URL as messages, logs and the store show it: scheme, host, port and path, without user, password,
/// query and fragment (where publishers put API keys); `?…` marks a query left out.
public enum RedactedURL {
    /// `https://example.org/gtfs.zip?…` for `https://user:secret@example.org/gtfs.zip?key=secret`.
    public static func text(_ url: URL) -> String {
        guard var parts = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return "<a URL>" }
        let hadQuery = parts.percentEncodedQuery != nil
        parts.user = nil
        parts.password = nil
        parts.percentEncodedQuery = nil
        parts.fragment = nil
        return (parts.string ?? "<a URL>") + (hadQuery ? "?…" : "")
    }

    /// Bytes as text a terminal shows safely: printable ASCII as it is, the rest as `\xNN`, `\n` and `\r`.
    static func escaped(_ bytes: [UInt8]) -> String {
        var text = ""
        for byte in bytes {
            switch byte {
            case 0x0A: text += "\\n"
            case 0x0D: text += "\\r"
            case 0x5C: text += "\\\\"
            case 0x20..<0x7F: text.unicodeScalars.append(Unicode.Scalar(byte))
            default: text += "\\x" + String(byte, radix: 16, uppercase: false).leftPadded(to: 2)
            }
        }
        return text
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
