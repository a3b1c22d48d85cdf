/// The values a trip update may hold to be applied: a publisher's bad (or hostile) numbers are passed over
/// with a note rather than predicted, so that no sum overflows and no board's window grows without bound.
enum RealtimeBounds {
    /// The largest delay, either way: a day.
    static let longestDelay = 86_400
    /// How far an absolute time may lie from its update's timestamp: a week.
    static let farthestTime: Int64 = 7 * 86_400
    /// Timestamps from 1970 to the end of 2999.
    static let timestamps: ClosedRange<Int64> = 0 ... 32_503_680_000

    /// Why `update`, made at `timestamp`, cannot be applied; `nil` when it can.
    static func problem(_ update: RealtimeTripUpdate, timestamp: Int64) -> String? {
        guard timestamps.contains(timestamp) else { return "its timestamp \(timestamp) is not between 1970 and 2999" }
        if let delay = update.delay, abs(delay) > longestDelay { return "its delay of \(delay) s is more than a day" }
        for (position, stu) in update.stopTimeUpdates.enumerated() {
            for (name, event) in [("arrival", stu.arrival), ("departure", stu.departure)] {
                guard let event else { continue }
                if let delay = event.delay, abs(delay) > longestDelay {
                    return "stop time update \(position + 1): its \(name) delay of \(delay) s is more than a day"
                }
                if let time = event.time, !(timestamp - farthestTime ... timestamp + farthestTime).contains(time) {
                    return "stop time update \(position + 1): its \(name) time \(time) is more than a week from the update's timestamp"
                }
            }
        }
        return nil
    }
}
