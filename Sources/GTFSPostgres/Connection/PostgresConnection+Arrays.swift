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
            for character in value {
                if character == "\"" || character == "\\" { literal.append("\\") }
                literal.append(character)
            }
            literal += "\""
        }
        return literal + "}"
    }
}
