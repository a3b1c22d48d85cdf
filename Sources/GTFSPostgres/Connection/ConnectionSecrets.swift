/// The passwords a libpq connection string holds, so that no message shows them: libpq's own errors quote
/// parts of a string it cannot parse (a bad percent-encoding, a broken IPv6 host), sometimes all of it.
struct ConnectionSecrets: Sendable {
    /// Each password as written and percent-decoded, longest first.
    let passwords: [String]

    /// Finds the passwords of `conninfo`: a URI's `user:password@`, and every `password=` value (a URI's
    /// query parameter, a `key=value` pair, quoted or not).
    init(_ conninfo: String) {
        var found: [String] = []
        for scheme in ["postgresql://", "postgres://"] where conninfo.hasPrefix(scheme) {
            let rest = conninfo.dropFirst(scheme.count)
            // libpq's reading: the user information ends at the first `@`, unless a `/` comes first. The last
            // `@` before the query is a second reading of a password that holds an `@`.
            let firstEnd = rest.firstIndex { $0 == "@" || $0 == "/" }
            let beforeQuery = rest.prefix { $0 != "?" }
            for end in [firstEnd.flatMap { rest[$0] == "@" ? $0 : nil }, beforeQuery.lastIndex(of: "@")].compactMap({ $0 }) {
                let userInformation = rest[..<end]
                if let colon = userInformation.firstIndex(of: ":") { found.append(String(userInformation[userInformation.index(after: colon)...])) }
            }
        }
        var search = conninfo[...]
        while let range = search.range(of: "password=") {
            var value = search[range.upperBound...]
            if value.first == "'" {
                value = value.dropFirst()
                value = value.prefix { $0 != "'" }
            } else {
                value = value.prefix { $0 != "&" && !$0.isWhitespace }
            }
            found.append(String(value))
            search = search[range.upperBound...]
        }
        let all = found.flatMap { [$0, Self.percentDecoded($0)].compactMap { $0 } }.filter { !$0.isEmpty }
        passwords = Array(Set(all)).sorted { ($0.count, $0) > ($1.count, $1) }
    }

    /// `text` with every password replaced by `***`.
    func redact(_ text: String) -> String {
        passwords.reduce(text) { $0.replacingOccurrences(of: $1, with: "***") }
    }

    /// `text` with its `%XX` escapes decoded, or `nil` when one is malformed or the bytes are not UTF-8.
    private static func percentDecoded(_ text: String) -> String? {
        var bytes: [UInt8] = []
        var index = text.utf8.startIndex
        let utf8 = text.utf8
        while index < utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%") {
                let first = utf8.index(after: index)
                guard first < utf8.endIndex, utf8.index(after: first) < utf8.endIndex,
                    let value = UInt8(String(decoding: utf8[first ... utf8.index(after: first)], as: UTF8.self), radix: 16)
                else { return nil }
                bytes.append(value)
                index = utf8.index(first, offsetBy: 2)
            } else {
                bytes.append(byte)
                index = utf8.index(after: index)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
