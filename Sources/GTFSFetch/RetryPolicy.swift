import Foundation

/// When the next attempt of a fetch starts: exponential backoff with full jitter, or the server's
/// `Retry-After`.
enum RetryPolicy {
    /// The wait before retry number `retry` (1 for the first): a random duration up to `first × 2^(retry-1)`,
    /// at most `longest`, and at least a tenth of that bound (so retries never hammer a server).
    static func backoff(retry: Int, first: Duration, longest: Duration) -> Duration {
        let bound = min(longest, first * (1 << min(max(retry - 1, 0), 20)))
        let seconds = bound / .seconds(1)
        return .seconds(Double.random(in: (seconds / 10)...max(seconds, seconds / 10)))
    }

    /// A `Retry-After` value: seconds, or an HTTP date (then the time until it), from 0 to a day.
    static func retryAfter(_ text: String?, now: Date = Date()) -> Duration? {
        guard let text = text?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        // Clamped to a day: a larger value means the same (too late to wait for) and cannot overflow.
        if let seconds = Int(text) { return .seconds(min(max(0, seconds), 86_400)) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: text) else { return nil }
        return .seconds(min(max(0, date.timeIntervalSince(now).rounded(.up)), 86_400))
    }
}
