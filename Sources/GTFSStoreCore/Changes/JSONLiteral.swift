/// Values of a ``RowChange`` as JSON text, for the change log of `gtfs-import --changes` and the kept
/// changes of both stores.
package enum JSONLiteral {
    /// A stored value: numbers bare (a non-finite double as `null`), text quoted.
    package static func value(_ value: RowChange.Value) -> String {
        switch value {
        case .null: "null"
        case .integer(let number): String(number)
        case .real(let number): number.isFinite ? String(number) : "null"
        case .text(let text): string(text)
        }
    }

    /// `text` as a JSON string.
    package static func string(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// A change's key as a kept change holds it: `{"trip_id":"T1","stop_sequence":3}`.
    package static func key(of change: RowChange) -> String {
        "{" + change.key.map { string($0.column) + ":" + value($0.value) }.joined(separator: ",") + "}"
    }

    /// An update's changed columns as a kept change holds them, `{"departure_time":{"old":28800,"new":28860}}`;
    /// `nil` for another change.
    package static func columns(of change: RowChange) -> String? {
        guard !change.updates.isEmpty else { return nil }
        return "{" + change.updates.map { string($0.column) + ":{\"old\":" + value($0.old) + ",\"new\":" + value($0.new) + "}" }
            .joined(separator: ",") + "}"
    }
}
