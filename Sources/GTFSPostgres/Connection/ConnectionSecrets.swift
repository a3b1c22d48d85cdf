/// The passwords a libpq connection string holds, so that no message shows them: libpq's own errors quote
/// parts of a string it cannot parse (a bad percent-encoding, a broken IPv6 host), sometimes all of it.
struct ConnectionSecrets: Sendable {
    /// Each password as written and as read (percent-decoded, unquoted), longest first.
    let passwords: [String]

    /// Finds the passwords of `conninfo`: a URI's `user:password@`, and every `password` or `sslpassword`
    /// value (a URI's query parameter, a `key = value` pair, quoted or not), with the values libpq itself
    /// read, `parsed`, when it could parse the string.
    init(_ conninfo: String, parsed: [String] = []) {
        var found = parsed + Self.userInformationPasswords(conninfo)
        var search = conninfo[...]
        while let keyword = search.range(of: "password") {
            var rest = search[keyword.upperBound...].drop { $0 == " " || $0 == "\t" }
            search = search[keyword.upperBound...]
            guard rest.first == "=" else { continue }
            rest = rest.dropFirst().drop { $0 == " " || $0 == "\t" }
            found += Self.value(rest)
        }
        let all = found.flatMap { [$0, Self.percentDecoded($0)].compactMap { $0 } }.filter { !$0.isEmpty }
        passwords = Array(Set(all)).sorted { ($0.count, $0) > ($1.count, $1) }
    }

    /// `text` with every password replaced by `***`. A password shorter than 4 characters is replaced only
    /// where it stands alone (between characters that are not letters or digits): replaced everywhere, it
    /// would garble every message and show by its gaps what it is.
    func redact(_ text: String) -> String {
        passwords.reduce(text) { text, password in
            password.count >= 4 ? text.replacingOccurrences(of: password, with: "***") : Self.replaceStandingAlone(password, in: text)
        }
    }

    /// A URI's `user:password@` password, read as libpq reads it (the user information ends at the first
    /// `@`, unless a `/` comes first) and, for a password that holds an `@`, up to the last `@` before the query.
    private static func userInformationPasswords(_ conninfo: String) -> [String] {
        var found: [String] = []
        for scheme in ["postgresql://", "postgres://"] where conninfo.hasPrefix(scheme) {
            let rest = conninfo.dropFirst(scheme.count)
            let firstEnd = rest.firstIndex { $0 == "@" || $0 == "/" }
            let beforeQuery = rest.prefix { $0 != "?" }
            for end in [firstEnd.flatMap { rest[$0] == "@" ? $0 : nil }, beforeQuery.lastIndex(of: "@")].compactMap({ $0 }) {
                let userInformation = rest[..<end]
                if let colon = userInformation.firstIndex(of: ":") { found.append(String(userInformation[userInformation.index(after: colon)...])) }
            }
        }
        return found
    }

    /// A value after `=`: quoted (`'…'`, `\'` and `\\` escaped) up to its closing quote, or up to white
    /// space or `&` (a URI's next parameter); as written, and with its escapes read.
    private static func value(_ text: Substring) -> [String] {
        let quoted = text.first == "'"
        var written = "", read = ""
        var escaped = false
        for character in quoted ? text.dropFirst() : text {
            if escaped {
                read.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if quoted ? character == "'" : (character.isWhitespace || character == "&") {
                break
            } else {
                read.append(character)
            }
            written.append(character)
        }
        return [written, read]
    }

    /// `text` with each occurrence of `password` that no letter or digit touches replaced by `***`.
    private static func replaceStandingAlone(_ password: String, in text: String) -> String {
        var result = ""
        var rest = text[...]
        while let range = rest.range(of: password) {
            let before = range.lowerBound > rest.startIndex ? rest[rest.index(before: range.lowerBound)] : nil
            let after = range.upperBound < rest.endIndex ? rest[range.upperBound] : nil
            let alone = !(before?.isLetter ?? false) && !(before?.isNumber ?? false) && !(after?.isLetter ?? false) && !(after?.isNumber ?? false)
            result += rest[..<range.lowerBound] + (alone ? "***" : password)
            rest = rest[range.upperBound...]
        }
        return result + rest
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
