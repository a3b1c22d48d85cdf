import CLibpq

/// What a connection string says, as libpq reads it: the server it names for messages, and its passwords.
extension PostgresConnection {
    /// `postgresql://user@host:port/dbname` from what libpq makes of `conninfo` (without the environment),
    /// or `PostgreSQL` when it cannot parse it. Never the password.
    static func describe(_ conninfo: String) -> String {
        guard let values = parsed(conninfo) else { return "PostgreSQL" }
        let user = values["user"].map { $0 + "@" } ?? ""
        let host = values["host"] ?? values["hostaddr"] ?? ""
        let port = values["port"].map { ":" + $0 } ?? ""
        let database = values["dbname"].map { "/" + $0 } ?? ""
        // A string libpq read otherwise than meant (`postgresql://host=… password=…` is one host name).
        return Self.secrets(conninfo).redact("postgresql://\(user)\(host)\(port)\(database)")
    }

    /// The passwords of `conninfo`, with those libpq reads in it.
    static func secrets(_ conninfo: String) -> ConnectionSecrets {
        let values = parsed(conninfo) ?? [:]
        return ConnectionSecrets(conninfo, parsed: [values["password"], values["sslpassword"]].compactMap { $0 })
    }

    /// The options libpq reads in `conninfo` (without the environment), or `nil` when it cannot parse it.
    static func parsed(_ conninfo: String) -> [String: String]? {
        guard loadLibpq() == nil else { return nil }
        var error: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(conninfo, &error) else {
            if let error { PQfreemem(error) }
            return nil
        }
        defer { PQconninfoFree(options) }
        var values: [String: String] = [:]
        var option = options
        while let keyword = option.pointee.keyword {
            if let value = option.pointee.val { values[String(cString: keyword)] = String(cString: value) }
            option += 1
        }
        return values
    }

    /// Loads libpq, once per process (see CLibpq: a program that never connects never loads it).
    /// - Returns: `nil` when libpq is loaded, else why it could not be.
    static func loadLibpq() -> String? {
        var message = [CChar](repeating: 0, count: 512)
        guard CLibpq_load(&message, message.count) == 0 else { return nil }
        return String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
