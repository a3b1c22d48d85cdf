/// The limits of the read API, the same for every store.
public enum FeedStoreLimits {
    /// The most events ``FeedStore/departures(from:between:and:feed:limit:realtime:)-(String,_,_,_,_,_)`` and
    /// ``FeedStore/arrivals(at:between:and:feed:limit:realtime:)-(String,_,_,_,_,_)`` return unless asked for more: 1,000.
    public static let boardLimit = 1_000
    /// The most words ``FeedStore/stops(named:feed:limit:)`` looks for: 32 (a stop's name rarely has 10).
    public static let maxNameWords = 32
}
