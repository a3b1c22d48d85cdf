/// What a realtime board says of a call.
public enum RealtimeStatus: String, Sendable, Hashable, CaseIterable {
    /// No prediction: the timetable's time stands (also for stale or absent updates).
    case scheduled
    /// A predicted time.
    case predicted
    /// The trip passes the stop without calling (`SKIPPED`).
    case skipped
    /// The trip does not run (`CANCELED`).
    case cancelled
    /// A trip not in the timetable (`ADDED`, or a `DUPLICATED` copy).
    case added
}

/// A call of a trip instance as the timetable has it: its instants in seconds since 1970 (the service
/// date's day start, the stop time, a frequency run's shift), `nil` where the stop time gives none.
public struct ScheduledCall: Sendable, Hashable {
    public var stopSequence: Int
    public var stopID: String
    public var arrival: Int64?, departure: Int64?

    public init(stopSequence: Int, stopID: String, arrival: Int64?, departure: Int64?) {
        (self.stopSequence, self.stopID, self.arrival, self.departure) = (stopSequence, stopID, arrival, departure)
    }
}

/// A call with what the realtime update predicts of it.
public struct PredictedCall: Sendable, Hashable {
    public var stopSequence: Int
    public var stopID: String
    public var status: RealtimeStatus
    /// The predicted instants (seconds since 1970); `nil` without a prediction or a time.
    public var arrival: Int64?, departure: Int64?
    /// Seconds late (negative: early); `nil` without a prediction.
    public var arrivalDelay: Int?, departureDelay: Int?

    public init(
        stopSequence: Int, stopID: String, status: RealtimeStatus, arrival: Int64? = nil, departure: Int64? = nil,
        arrivalDelay: Int? = nil, departureDelay: Int? = nil
    ) {
        (self.stopSequence, self.stopID, self.status, self.arrival, self.departure) = (stopSequence, stopID, status, arrival, departure)
        (self.arrivalDelay, self.departureDelay) = (arrivalDelay, departureDelay)
    }
}

/// The specification's rules for a trip update's stop time updates over a trip's calls
/// (docs/Database.md, "Realtime"):
///
/// - An update matches the call with its `stop_sequence`, else the first call with its `stop_id` after
///   the previous match that no update matched yet (so a loop's second visit gets the second update).
/// - A delay, or an absolute time (delay = time − scheduled), holds at the following calls until the next
///   update; a departure without an event of its own takes the arrival's delay, an arrival without one
///   the delay carried from before. Calls before the first update have no prediction.
/// - `SKIPPED`: the call is skipped; the delay from before it carries on past it.
/// - `NO_DATA` (and `UNSCHEDULED`): no prediction at the call nor after it until an update with data.
/// - A cancelled trip is cancelled at every call.
public enum RealtimePropagation {
    /// The calls of a trip instance with the updates applied.
    /// - Returns: one predicted call per call, in order, and how many updates matched no call.
    public static func predict(
        _ calls: [ScheduledCall], updates: [RealtimeStopTimeUpdate], cancelled: Bool = false
    ) -> (calls: [PredictedCall], unmatched: Int) {
        if cancelled {
            return (calls.map { PredictedCall(stopSequence: $0.stopSequence, stopID: $0.stopID, status: .cancelled) }, 0)
        }
        let (matched, unmatched) = match(calls, updates)
        var carried: Int?
        var result: [PredictedCall] = []
        result.reserveCapacity(calls.count)
        for (index, call) in calls.enumerated() {
            var predicted = PredictedCall(stopSequence: call.stopSequence, stopID: call.stopID, status: .scheduled)
            if let update = matched[index] {
                switch update.relationship {
                case .skipped: predicted.status = .skipped
                case .noData, .unscheduled: carried = nil
                case .scheduled: carried = apply(update, to: call, carried: carried, into: &predicted)
                }
            } else if let delay = carried {
                predicted.status = .predicted
                (predicted.arrivalDelay, predicted.departureDelay) = (delay, delay)
                predicted.arrival = call.arrival.map { $0 + Int64(delay) }
                predicted.departure = call.departure.map { $0 + Int64(delay) }
            }
            result.append(predicted)
        }
        return (result, unmatched)
    }

    /// Which update each call has (by index), and how many updates matched none.
    static func match(_ calls: [ScheduledCall], _ updates: [RealtimeStopTimeUpdate]) -> (matched: [RealtimeStopTimeUpdate?], unmatched: Int) {
        var matched = [RealtimeStopTimeUpdate?](repeating: nil, count: calls.count)
        var bySequence: [Int: Int] = [:]
        for (index, call) in calls.enumerated() where bySequence[call.stopSequence] == nil { bySequence[call.stopSequence] = index }
        var next = 0
        var unmatched = 0
        for update in updates {
            var found: Int?
            if let sequence = update.stopSequence {
                found = bySequence[sequence]
            } else if let stop = update.stopID {
                found = calls.indices.dropFirst(next).first { calls[$0].stopID == stop && matched[$0] == nil }
            }
            guard let index = found, matched[index] == nil else {
                unmatched += 1
                continue
            }
            matched[index] = update
            next = index + 1
        }
        return (matched, unmatched)
    }

    /// Applies a `SCHEDULED` update to its call; returns the delay carried on.
    private static func apply(_ update: RealtimeStopTimeUpdate, to call: ScheduledCall, carried: Int?, into predicted: inout PredictedCall) -> Int? {
        func delay(_ event: RealtimeStopTimeEvent?, scheduled: Int64?) -> Int? {
            guard let event else { return nil }
            if let time = event.time { return scheduled.map { Int(time - $0) } ?? event.delay }
            return event.delay
        }
        let arrivalDelay = update.arrival?.hasData == true ? delay(update.arrival, scheduled: call.arrival) : carried
        let departureDelay = update.departure?.hasData == true ? delay(update.departure, scheduled: call.departure) : arrivalDelay
        predicted.arrival = update.arrival?.time ?? zip(call.arrival, arrivalDelay)
        predicted.departure = update.departure?.time ?? zip(call.departure, departureDelay)
        (predicted.arrivalDelay, predicted.departureDelay) = (arrivalDelay, departureDelay)
        if predicted.arrival != nil || predicted.departure != nil || arrivalDelay != nil || departureDelay != nil {
            predicted.status = .predicted
        }
        return departureDelay ?? arrivalDelay ?? carried
    }

    private static func zip(_ instant: Int64?, _ delay: Int?) -> Int64? {
        guard let instant, let delay else { return nil }
        return instant + Int64(delay)
    }
}
