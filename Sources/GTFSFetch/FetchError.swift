/// Why a feed could not be fetched. Messages name the URL without user, password or query
/// (``RedactedURL``) and never a header's value.
public enum FetchError: Error, Sendable, CustomStringConvertible {
    /// The URL is not an absolute http or https URL.
    case invalidURL(String)
    /// A `--header` (``HTTPHeaderField``) that cannot be sent.
    case invalidHeader(String)
    /// The server answered with a status that is not retried (a 4xx but 429), or a retried one too often.
    case status(code: Int, reason: String, url: String, attempts: Int)
    /// The body is not a zip: its first bytes, escaped.
    case notAZip(url: String, firstBytes: String)
    /// The body passed ``FetchOptions/maxDownload``.
    case tooLarge(url: String, limit: Int64)
    /// More redirects than ``FetchOptions/maxRedirects``, or a redirect back to a URL already visited.
    case tooManyRedirects(url: String, limit: Int, loop: Bool)
    /// A redirect from https to http.
    case insecureRedirect(from: String, to: String)
    /// A redirect without a usable `Location`.
    case badRedirect(url: String, code: Int)
    /// The connection failed, timed out or was dropped, on every attempt.
    case connection(url: String, message: String, attempts: Int)
    /// The server asked to come back later than ``FetchOptions/longestRetryDelay`` allows.
    case retryTooLate(url: String, seconds: Int)
    /// The download could not be written (a full disk, a directory that cannot be written).
    /// A realtime message's file or pipe that cannot be read, or is larger than allowed.
    case unreadable(path: String, message: String)
    case file(path: String, message: String)
    /// The fetch was cancelled.
    case cancelled

    public var description: String {
        switch self {
        case .invalidURL(let text): "\(text) is not an http or https URL"
        case .invalidHeader(let problem): problem
        case .status(let code, let reason, let url, let attempts):
            "\(url): the server answered \(code) \(reason)" + (attempts > 1 ? " (\(attempts) attempts)" : "")
        case .notAZip(let url, let bytes): "\(url): the answer is not a zip feed; it begins \"\(bytes)\""
        case .tooLarge(let url, let limit): "\(url): the body passed the limit of \(Self.bytes(limit)) (--max-download)"
        case .tooManyRedirects(let url, let limit, let loop):
            loop ? "\(url): redirects lead back to a URL already visited (a redirect loop)" : "\(url): more than \(limit) redirects"
        case .insecureRedirect(let from, let to): "\(from): refused a redirect from https to http (\(to))"
        case .badRedirect(let url, let code): "\(url): the server answered \(code) without a usable Location"
        case .connection(let url, let message, let attempts): "\(url): \(message)" + (attempts > 1 ? " (\(attempts) attempts)" : "")
        case .retryTooLate(let url, let seconds): "\(url): the server asks to retry after \(seconds) s, longer than allowed"
        case .file(let path, let message): "\(path): cannot write the download: \(message)"
        case .unreadable(let path, let message): "\(path): \(message)"
        case .cancelled: "the download was cancelled"
        }
    }

    /// `4 GiB`, `500 MiB`, `123 bytes`.
    static func bytes(_ count: Int64) -> String {
        if count >= 1 << 30 && count % (1 << 30) == 0 { return "\(count >> 30) GiB" }
        if count >= 1 << 20 && count % (1 << 20) == 0 { return "\(count >> 20) MiB" }
        return "\(count) bytes"
    }
}
