import Foundation

/// How a feed is fetched from its URL: headers, timeouts, retries and limits. The defaults suit a
/// publisher's feed of a few hundred megabytes on an ordinary connection.
public struct FetchOptions: Sendable {
    /// Headers sent with every request to the URL's own origin (API keys): never to another host a redirect
    /// leads to, and never shown in any output, log or error.
    public var headers: [HTTPHeaderField] = []
    /// The longest wait for a connection (TCP and TLS) to be made.
    public var connectTimeout: Duration = .seconds(30)
    /// The longest wait for the next bytes of an answer (headers or body) before the attempt counts as dropped.
    public var idleTimeout: Duration = .seconds(60)
    /// Attempts after the first for a dropped connection, a timeout, a 5xx or a 429.
    public var retries = 4
    /// The wait before the first retry; it doubles with each further retry (with full jitter), up to
    /// ``longestRetryDelay``.
    public var retryDelay: Duration = .seconds(1)
    /// The longest wait between attempts, also for a server's `Retry-After`: one asking for longer ends the
    /// fetch with its answer.
    public var longestRetryDelay: Duration = .seconds(300)
    /// The most bytes a body may have (default 4 GiB): an endless or oversized body stops there.
    public var maxDownload: Int64 = 4 << 30
    /// Whether the body must be a zip (a GTFS Schedule feed), refused as soon as its first bytes are not;
    /// `false` for GTFS-Realtime's protobuf messages.
    public var requiresZip = true
    /// The most redirects followed (never from https to http).
    public var maxRedirects = 10
    /// A PEM file of certificate authorities trusted besides the system's (a company's own CA); TLS is
    /// always verified.
    public var certificateAuthorities: String?
    /// Where the proxy settings are read (`HTTPS_PROXY`, `HTTP_PROXY`, `NO_PROXY`, or in lower case): the
    /// process's environment unless set.
    public var environment: [String: String] = ProcessInfo.processInfo.environment

    /// The defaults.
    public init() {}
}

/// A request header given with the feed's URL: `Name: value`.
public struct HTTPHeaderField: Sendable, Hashable, CustomStringConvertible {
    /// The header's name.
    public let name: String
    /// Its value, which no description shows.
    public let value: String

    /// A header from its name and value.
    /// - Throws: ``FetchError/invalidHeader(_:)`` for a name that is not an HTTP token, or a value with a line break.
    public init(name: String, value: String) throws(FetchError) {
        let token = CharacterSet(charactersIn: "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
        guard !name.isEmpty, name.unicodeScalars.allSatisfy(token.contains) else {
            throw .invalidHeader("header name \(RedactedURL.escaped(Array(name.utf8.prefix(40)))) is not a valid HTTP name")
        }
        // HTTP allows tabs and visible characters: a control character is refused here, where the message
        // can name the header without its value.
        guard !value.unicodeScalars.contains(where: { ($0.value < 0x20 && $0 != "\t") || $0.value == 0x7F }) else {
            throw .invalidHeader("the value of header \(name) holds a control character (a line break, an escape)")
        }
        self.name = name
        self.value = value.trimmingCharacters(in: .whitespaces)
    }

    /// A header from `Name: value` (as `curl -H` takes it).
    /// - Throws: ``FetchError/invalidHeader(_:)`` when there is no colon, or as ``init(name:value:)``.
    public init(parsing text: String) throws(FetchError) {
        guard let colon = text.firstIndex(of: ":") else { throw .invalidHeader("a header is Name: value, and this one has no colon") }
        try self.init(name: String(text[..<colon]).trimmingCharacters(in: .whitespaces), value: String(text[text.index(after: colon)...]))
    }

    /// `Name: …`: the value is never shown.
    public var description: String { "\(name): …" }
}
