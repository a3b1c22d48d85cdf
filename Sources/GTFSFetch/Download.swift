import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL

/// One fetch in progress: its attempts, each following redirects, writing the body to the file and
/// resuming it where the last attempt stopped when the server allows.
struct Download {
    let fetcher: FeedFetcher
    let file: DownloadFile
    let validators: FeedValidators?
    let progress: (@Sendable (DownloadProgress) -> Void)?
    private var attempt = 0
    /// What the body being written is: its validators (for `If-Range`) and whole size.
    private var bodyValidators = FeedValidators(etag: nil, lastModified: nil)
    private var expected: Int64?
    private var lastReport = ContinuousClock.now
    /// Whether this fetch has had a body: the validators it was given then belong to an older version, and a
    /// later attempt must not ask with them.
    private var sawBody = false

    init(fetcher: FeedFetcher, file: DownloadFile, validators: FeedValidators?, progress: (@Sendable (DownloadProgress) -> Void)?) {
        self.fetcher = fetcher
        self.file = file
        self.validators = validators
        self.progress = progress
    }

    private var options: FetchOptions { fetcher.options }
    private var display: String { fetcher.displayURL }

    /// How one request ended when it did not fail.
    enum Hop {
        /// A redirect to this URL.
        case redirect(URL)
        /// A 304 to the validators.
        case notModified
        /// A body, written to the file.
        case body
    }

    /// A failed attempt: retried (after the server's wait, if it named one) or final.
    enum Failure: Error {
        case retry(message: String, after: Duration?, status: (Int, String)?)
        case final(FetchError)
    }

    mutating func run() async throws(FetchError) -> FetchOutcome {
        while true {
            attempt += 1
            let message: String
            let after: Duration?
            let status: (Int, String)?
            do {
                return try await attemptOnce()
            } catch {
                switch error {
                case .final(let error): throw error
                case .retry(let text, let wait, let code): (message, after, status) = (text, wait, code)
                }
            }
            guard attempt <= options.retries else {
                if let (code, reason) = status { throw .status(code: code, reason: reason, url: display, attempts: attempt) }
                throw .connection(url: display, message: message, attempts: attempt)
            }
            let wait = after ?? RetryPolicy.backoff(retry: attempt, first: options.retryDelay, longest: options.longestRetryDelay)
            if wait > options.longestRetryDelay { throw .retryTooLate(url: display, seconds: Int((wait / .seconds(1)).rounded(.up))) }
            do {
                try await Task.sleep(for: wait)
            } catch {
                throw .cancelled
            }
        }
    }

    /// One attempt: the request and its redirects, then the body.
    private mutating func attemptOnce() async throws(Failure) -> FetchOutcome {
        var url = fetcher.url
        var visited: Set<String> = [url.absoluteString]
        var redirects = 0
        while true {
            let hop: Hop
            do {
                hop = try await self.hop(url)
            } catch let failure as Failure {
                throw failure
            } catch {
                throw Self.classify(error, options: options, url: display)
            }
            let next: URL
            switch hop {
            case .notModified: return .notModified(finalURL: url)
            case .body: return try downloaded(from: url)
            case .redirect(let target): next = target
            }
            if url.scheme?.lowercased() == "https" && next.scheme?.lowercased() == "http" {
                throw .final(.insecureRedirect(from: RedactedURL.text(url), to: RedactedURL.text(next)))
            }
            redirects += 1
            if !visited.insert(next.absoluteString).inserted || redirects > options.maxRedirects {
                throw .final(.tooManyRedirects(url: display, limit: options.maxRedirects, loop: redirects <= options.maxRedirects))
            }
            url = next
        }
    }

    /// The finished file, whose body came from `url`.
    private func downloaded(from url: URL) throws(Failure) -> FetchOutcome {
        do {
            let digest = try file.finish()
            return .downloaded(DownloadedFeed(file: file.url, bytes: file.size, sha256: digest, validators: bodyValidators, finalURL: url))
        } catch {
            throw .final(error)
        }
    }

    /// Requests `url` once.
    private mutating func hop(_ url: URL) async throws -> Hop {
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(connect: Self.amount(options.connectTimeout), read: Self.amount(options.idleTimeout)))
        configuration.proxy = ProxySettings.proxy(for: url, environment: options.environment)
        configuration.decompression = .disabled
        var tls = TLSConfiguration.makeClientConfiguration()
        if let authorities = options.certificateAuthorities { tls.additionalTrustRoots = [.file(authorities)] }
        configuration.tlsConfiguration = tls
        let request = makeRequest(url)
        var this = self
        // What the answer taught (the body's validators and size) counts for the next attempt, also when
        // this one fails.
        defer { self = this }
        return try await HTTPClient.withHTTPClient(configuration: configuration) { client in
            let response = try await client.execute(request, deadline: .distantFuture)
            return try await this.take(response, from: url)
        }
    }

    /// The request: the caller's headers on the URL's origin only, validators on a fresh body, `Range` and
    /// `If-Range` on a body to resume.
    private func makeRequest(_ url: URL) -> HTTPClientRequest {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.headers.add(name: "User-Agent", value: "gtfs-import (swift-gtfs-lines)")
        if Self.origin(url) == Self.origin(fetcher.url) {
            for header in options.headers { request.headers.add(name: header.name, value: header.value) }
        }
        if file.size > 0, let validator = bodyValidators.rangeValidator {
            request.headers.add(name: "Range", value: "bytes=\(file.size)-")
            request.headers.add(name: "If-Range", value: validator)
        } else if let validators, !sawBody {
            // The entity tag alone when there is one: a date compares the resource's time, which a new file
            // behind a redirect may carry from an older build.
            if let etag = validators.etag {
                request.headers.add(name: "If-None-Match", value: etag)
            } else if let date = validators.lastModified {
                request.headers.add(name: "If-Modified-Since", value: date)
            }
        }
        return request
    }

    /// Takes an answer: a redirect's target, a 304, a body (written), or a failure.
    private mutating func take(_ response: HTTPClientResponse, from url: URL) async throws -> Hop {
        let code = Int(response.status.code)
        switch code {
        case 301, 302, 303, 307, 308:
            _ = try? await response.body.collect(upTo: 64 * 1024)
            guard let location = response.headers.first(name: "location"), let next = URL(string: location, relativeTo: url)?.absoluteURL,
                FeedFetcher.isFetchable(next)
            else { throw Failure.final(.badRedirect(url: RedactedURL.text(url), code: code)) }
            return .redirect(next)
        case 304 where validators != nil && file.size == 0 && !sawBody:
            return .notModified
        case 200, 206:
            try prepareBody(response, code: code)
            try await write(response.body)
            return .body
        case 416:
            try mapFile { () throws(FetchError) in try file.truncate() }
            throw Failure.retry(message: "the server refused to resume (416)", after: .zero, status: (code, response.status.reasonPhrase))
        case 408, 429, 500...599:
            let after = RetryPolicy.retryAfter(response.headers.first(name: "retry-after"))
            throw Failure.retry(message: "the server answered \(code)", after: after, status: (code, response.status.reasonPhrase))
        default:
            throw Failure.final(.status(code: code, reason: response.status.reasonPhrase, url: RedactedURL.text(url), attempts: attempt))
        }
    }

    /// Sets the file up for the answer's body: appended to for a 206 that starts where the file ends, else
    /// emptied; and learns the body's validators and size.
    private mutating func prepareBody(_ response: HTTPClientResponse, code: Int) throws(Failure) {
        let length = response.headers.first(name: "content-length").flatMap { Int64($0) }
        if code == 206 {
            // The rest of the body, or else a part that fits nothing held: the next attempt starts over.
            let sameVersion =
                (response.headers.first(name: "etag") ?? bodyValidators.etag) == bodyValidators.etag
                && (response.headers.first(name: "last-modified") ?? bodyValidators.lastModified) == bodyValidators.lastModified
            guard file.size > 0, sameVersion, let range = Self.contentRange(response.headers.first(name: "content-range")),
                range.start == file.size, range.total == nil || expected == nil || range.total == expected
            else {
                try mapFile { () throws(FetchError) in try file.truncate() }
                throw .retry(message: "the server sent a part of the body that does not follow what was received", after: .zero, status: nil)
            }
            expected = range.total ?? expected
        } else {
            try mapFile { () throws(FetchError) in try file.truncate() }
            bodyValidators = FeedValidators(etag: response.headers.first(name: "etag"), lastModified: response.headers.first(name: "last-modified"))
            sawBody = true
            expected = code == 200 ? length : nil
        }
        if let expected, expected > options.maxDownload { throw .final(.tooLarge(url: display, limit: options.maxDownload)) }
    }

    /// Writes the body to the file as it arrives: refused when it does not begin as a zip or passes the
    /// limit; a body that ends before its announced size is retried.
    private mutating func write(_ body: HTTPClientResponse.Body) async throws {
        for try await buffer in body {
            try buffer.withUnsafeReadableBytes { bytes throws(Failure) in try mapFile { () throws(FetchError) in try file.append(bytes) } }
            if options.requiresZip, file.head.count >= 4 || file.size >= 4, !file.looksLikeZip {
                throw Failure.final(.notAZip(url: display, firstBytes: RedactedURL.escaped(file.head)))
            }
            if file.size > options.maxDownload { throw Failure.final(.tooLarge(url: display, limit: options.maxDownload)) }
            report()
        }
        if options.requiresZip, file.size < 4 { throw Failure.final(.notAZip(url: display, firstBytes: RedactedURL.escaped(file.head))) }
        if let expected, file.size < expected {
            throw Failure.retry(message: "the body ended after \(file.size) of \(expected) bytes", after: nil, status: nil)
        }
        report(force: true)
    }

    private mutating func report(force: Bool = false) {
        guard let progress else { return }
        let now = ContinuousClock.now
        guard force || now - lastReport >= .milliseconds(100) else { return }
        lastReport = now
        progress(DownloadProgress(bytesReceived: file.size, expectedBytes: expected, attempt: attempt))
    }

    private func mapFile(_ body: () throws(FetchError) -> Void) throws(Failure) {
        do { try body() } catch { throw .final(error) }
    }
}

extension Download {
    /// `scheme://host:port`, to keep the caller's headers on the URL's origin.
    static func origin(_ url: URL) -> String {
        let scheme = url.scheme?.lowercased() ?? ""
        return "\(scheme)://\(url.host?.lowercased() ?? ""):\(url.port ?? (scheme == "https" ? 443 : 80))"
    }

    /// `bytes START-END/TOTAL` (TOTAL may be `*`).
    static func contentRange(_ text: String?) -> (start: Int64, total: Int64?)? {
        guard let text, text.lowercased().hasPrefix("bytes ") else { return nil }
        let parts = text.dropFirst(6).split(separator: "/")
        guard let range = parts.first, let start = range.split(separator: "-").first.flatMap({ Int64($0) }) else { return nil }
        return (start, parts.count > 1 ? Int64(parts[1]) : nil)
    }

    static func amount(_ duration: Duration) -> TimeAmount { .milliseconds(Int64(duration / .milliseconds(1))) }

    /// What an error of the client means: cancellation, a TLS failure (final: retrying cannot fix a
    /// certificate), or a connection problem worth another attempt.
    static func classify(_ error: any Error, options: FetchOptions, url: String) -> Failure {
        if Task.isCancelled || error is CancellationError { return .final(.cancelled) }
        if let error = error as? HTTPClientError {
            switch error {
            case .readTimeout: return .retry(message: "no data for \(seconds(options.idleTimeout)) (idle timeout)", after: nil, status: nil)
            case .connectTimeout: return .retry(message: "no connection within \(seconds(options.connectTimeout)) (connect timeout)", after: nil, status: nil)
            case .cancelled: return .final(.cancelled)
            case .remoteConnectionClosed: return .retry(message: "the server closed the connection before the body ended", after: nil, status: nil)
            default:
                // Its description may quote what was sent (a header's value): the case's name alone.
                let name = String(describing: error).prefix { $0 != "(" }
                if name.contains("invalidHeaderField") {
                    return .final(.invalidHeader("a header cannot be sent (a character HTTP does not allow)"))
                }
                return .retry(message: "the connection failed: \(name)", after: nil, status: nil)
            }
        }
        let text = String(describing: error)
        let kind = String(reflecting: type(of: error))
        if kind.contains("NIOSSL") || kind.contains("BoringSSL") || text.contains("certificate") {
            return .final(.connection(url: url, message: "TLS failed: \(text)", attempts: 1))
        }
        return .retry(message: "the connection failed: \(text)", after: nil, status: nil)
    }

    static func seconds(_ duration: Duration) -> String {
        let value = duration / .seconds(1)
        return value == value.rounded() ? "\(Int(value)) s" : String(format: "%.1f s", value)
    }
}
