import AsyncHTTPClient
public import Foundation
import NIOCore
import NIOHTTP1

/// Fetches one feed from its URL to a file: conditionally (the validators of the version held), resuming a
/// dropped body with `Range` where the server allows it, retrying what can succeed later, within the limits
/// of ``FetchOptions``. Memory stays bounded: the body goes to the file as it arrives, with back-pressure.
///
/// ```swift
/// let fetcher = try FeedFetcher(url: "https://example.org/gtfs.zip")
/// switch try await fetcher.fetch(into: FileManager.default.temporaryDirectory) {
/// case .notModified: print("not modified")
/// case .downloaded(let feed): print(feed.bytes, "bytes in", feed.file.path)
/// }
/// ```
public struct FeedFetcher: Sendable {
    /// The feed's URL.
    public let url: URL
    /// Headers, timeouts, retries and limits.
    public let options: FetchOptions

    /// A fetcher of `url`.
    /// - Throws: ``FetchError/invalidURL(_:)`` unless it is an absolute http or https URL with a host.
    public init(url: URL, options: FetchOptions = FetchOptions()) throws(FetchError) {
        guard Self.isFetchable(url) else { throw .invalidURL(RedactedURL.text(url)) }
        self.url = url
        self.options = options
    }

    /// A fetcher of the URL `text`.
    /// - Throws: ``FetchError/invalidURL(_:)``.
    public init(url text: String, options: FetchOptions = FetchOptions()) throws(FetchError) {
        // A text that is not a URL is not shown whole: it may hold a key in its query or a password.
        guard let url = URL(string: text) else { throw .invalidURL(GTFSFetchText.withoutSecrets(text)) }
        try self.init(url: url, options: options)
    }

    /// Whether `text` is an http or https URL (what `gtfs-import` fetches rather than opens).
    public static func isURL(_ text: String) -> Bool {
        let lower = text.lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }

    static func isFetchable(_ url: URL) -> Bool {
        ["http", "https"].contains(url.scheme?.lowercased() ?? "") && !(url.host ?? "").isEmpty
    }

    /// Deletes the files of the downloads under way in this process: for a process about to end without
    /// letting them finish (a tool giving up after a signal), which would otherwise leave them behind.
    package static func removeDownloadsInProgress() { DownloadFile.removeAllInProgress() }

    /// The URL as messages show it (``RedactedURL``).
    public var displayURL: String { RedactedURL.text(url) }

    /// Fetches the feed into a new file in `directory`.
    /// - Parameters:
    ///   - validators: the `ETag` and `Last-Modified` of the version held, sent as `If-None-Match` and
    ///     `If-Modified-Since`; `nil` fetches unconditionally.
    ///   - directory: where the file goes (a zip is read from a file: it needs its central directory).
    ///   - progress: told of the bytes received, at most 10 times a second.
    /// - Returns: ``FetchOutcome/notModified(finalURL:)`` for a 304, else the downloaded file, which the caller removes.
    /// - Throws: ``FetchError``; no file is left behind.
    public func fetch(
        validators: FeedValidators? = nil, into directory: URL, progress: (@Sendable (DownloadProgress) -> Void)? = nil
    ) async throws(FetchError) -> FetchOutcome {
        let file = try DownloadFile(in: directory)
        var download = Download(fetcher: self, file: file, validators: validators, progress: progress)
        do {
            let outcome = try await download.run()
            // A 304 leaves no file; a body's file is the caller's now.
            if case .notModified = outcome { file.remove() } else { file.released() }
            return outcome
        } catch {
            file.remove()
            throw error
        }
    }
}

/// The `ETag` and `Last-Modified` of a response, as the server sent them.
public struct FeedValidators: Sendable, Hashable {
    /// The entity tag, quotes and `W/` included.
    public var etag: String?
    /// The date, as sent.
    public var lastModified: String?

    /// Validators from a response's values.
    public init(etag: String?, lastModified: String?) {
        self.etag = etag
        self.lastModified = lastModified
    }

    /// Whether there is any.
    public var isEmpty: Bool { etag == nil && lastModified == nil }

    /// What `If-Range` takes: a strong entity tag, else the date when there is no tag at all (a weak tag
    /// cannot say the bytes are the same, and a date beside it may not be sent: RFC 9110, 13.1.5).
    var rangeValidator: String? {
        guard let etag else { return lastModified }
        return etag.hasPrefix("W/") ? nil : etag
    }
}

/// How a fetch ended.
public enum FetchOutcome: Sendable {
    /// The server at `finalURL` (where the redirects led) answered 304 Not Modified: the held version is current.
    case notModified(finalURL: URL)
    /// The body, in a file.
    case downloaded(DownloadedFeed)
}

/// A feed's body in a file, with what identifies it.
public struct DownloadedFeed: Sendable {
    /// The file; the caller removes it.
    public let file: URL
    /// Its size.
    public let bytes: Int64
    /// The SHA-256 of its bytes, in hex.
    public let sha256: String
    /// The response's validators.
    public let validators: FeedValidators
    /// The URL the redirects led to, which answered with the body.
    public let finalURL: URL
}

/// How far a download is.
public struct DownloadProgress: Sendable {
    /// Bytes of the body in the file.
    public let bytesReceived: Int64
    /// The body's size, when the server said (`Content-Length`, `Content-Range`).
    public let expectedBytes: Int64?
    /// The attempt, 1 for the first.
    public let attempt: Int
}

enum GTFSFetchText {
    /// A text given as a URL that does not parse, as a message may show it: without what follows `?` or
    /// `#`, without what precedes `@` after the scheme, at most 80 characters.
    static func withoutSecrets(_ text: String) -> String {
        var shown = String(text.prefix { $0 != "?" && $0 != "#" })
        if let scheme = shown.range(of: "://"), let at = shown[scheme.upperBound...].firstIndex(of: "@") {
            shown.removeSubrange(scheme.upperBound...at)
        }
        if shown.count < text.count { shown += "…" }
        return shown.count > 80 ? String(shown.prefix(77)) + "…" : shown
    }
}
