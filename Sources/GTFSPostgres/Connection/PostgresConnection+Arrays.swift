extension PostgresConnection {
    /// `values` as a PostgreSQL array literal of text (`{"a",NULL,"b"}`), for a parameter cast to an array
    /// type (`$1::text[]`, `$1::bigint[]`): many values in one parameter.
    static func arrayLiteral(_ values: [String?]) -> String {
        var literal = "{"
        for (index, value) in values.enumerated() {
            if index > 0 { literal += "," }
            guard let value else {
                literal += "NULL"
                continue
            }
            literal += "\""
            // Scalar by scalar: a quote or backslash followed by a combining mark is one Character, which
            // would not be escaped.
            for scalar in value.unicodeScalars {
                if scalar == "\"" || scalar == "\\" { literal.unicodeScalars.append("\\") }
                literal.unicodeScalars.append(scalar)
            }
            literal += "\""
        }
        return literal + "}"
    }
}
