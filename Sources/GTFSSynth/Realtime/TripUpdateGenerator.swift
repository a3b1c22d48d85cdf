import Foundation
package import GTFS
package import GTFSRealtime

/// How many entities and updates of each kind a message got: the tool's closing line.
package struct RealtimeCounts {
    /// Scheduled trips selected (each an entity, cancelled ones included).
    var selected = 0
    /// Stop time updates of every entity, added trips' included.
    var stopTimeUpdates = 0
    /// Entities of each kind; `skipped` and `noData` count trips, not stops.
    var canceled = 0, skipped = 0, noData = 0, added = 0
    /// Entities given 60 s more delay by `--changed-percent`.
    var changed = 0

    /// The closing line: counts, the bytes written and the time taken.
    package func summary(bytes: Int64, path: String, seconds: Double) -> String {
        "\(selected) trips selected, \(stopTimeUpdates) stop time updates, \(canceled) canceled, \(skipped) skipped, "
            + "\(noData) no-data, \(added) added, \(changed) changed; \(bytes) bytes written to \(path) in "
            + String(format: "%.2f s", seconds)
    }
}

/// Turns each selected trip's stops into its entity, and collects the added trips that copy some of them.
///
/// Every choice about a trip draws from streams keyed by its `trip_id` (and the seed), never from a
/// sequence shared between trips: a trip gets the same delays whatever else the window holds, and
/// `--changed-percent` draws from a stream of its own, so that it changes the chosen entities and nothing
/// else.
package struct TripUpdateGenerator {
    /// What a random stream decides: each has its own, so that one decision never shifts another's numbers.
    enum Purpose: UInt64 {
        case fate = 1, delays, changed, added
    }

    /// Shares of the selected trips: cancelled, with one skipped stop, with no data from some stop on, and
    /// copied as an added trip.
    static let canceledShare = 0.02, skippedShare = 0.03, noDataShare = 0.01, addedShare = 0.005
    /// The random walk of delays: where it starts, how far it moves from stop to stop, and its bounds.
    static let initialDelay = 0 ... 180, delayStep = -30 ... 30, delayBounds = -120 ... 1800
    /// What a changed entity gets on every delay (and an added one on every time).
    static let changeSeconds = 60
    /// How much later an added trip runs than the trip it copies.
    static let addedOffset: Int64 = 300

    /// `--seed`: every stream starts from it.
    let seed: UInt64
    /// `start_date` of every trip, `YYYYMMDD`.
    let serviceDate: String
    /// First departures selected, in seconds from the service day's start.
    let window: Range<Int32>
    /// The service day's "noon minus 12 h", seconds since 1970: where added trips' absolute times count from.
    let dayStart: Int64
    /// Each update's `timestamp`.
    let timestamp: Int64
    /// `--changed-percent` as a fraction.
    let changedFraction: Double
    /// What was generated so far.
    package private(set) var counts = RealtimeCounts()
    private var added: [RealtimeTripUpdate] = []

    /// How a trip differs from its schedule, apart from its delays.
    enum Fate: Equatable {
        case scheduled, canceled
        /// The stop at this index (never the first or the last) is skipped.
        case skipped(Int)
        /// The stops from this index on have no data.
        case noData(from: Int)
    }

    /// A generator for one message; see the properties for what each argument is.
    package init(seed: UInt64, serviceDate: String, window: Range<Int32>, dayStart: Int64, timestamp: Int64, changedFraction: Double) {
        (self.seed, self.serviceDate, self.window, self.dayStart) = (seed, serviceDate, window, dayStart)
        (self.timestamp, self.changedFraction) = (timestamp, changedFraction)
    }

    /// The entity of a trip whose first departure lies in the window; `nil` for any other trip.
    /// - Parameters:
    ///   - tripID: the trip.
    ///   - trip: its route and direction.
    ///   - stops: its stops in stop sequence order.
    package mutating func update(tripID: GTFSID, trip: RealtimeSchedule.TripInfo, stops: [ScheduledStop]) -> RealtimeTripUpdate? {
        guard let first = stops.first, let start = first.departure ?? first.arrival, window.contains(start) else { return nil }
        let key = Self.key(tripID)
        var random = SplitMix64(seed: seed, streamNumber: Purpose.fate.rawValue, key: key)
        let fate = Self.fate(stopCount: stops.count, random: &random)
        let changed = fate != .canceled && isChanged(key: key)
        let descriptor = RealtimeTrip(
            tripID: tripID.description, routeID: trip.routeID, directionID: trip.directionID,
            startTime: GTFSTime(seconds: start).description, startDate: serviceDate, relationship: fate == .canceled ? .canceled : .scheduled)
        var delays = SplitMix64(seed: seed, streamNumber: Purpose.delays.rawValue, key: key)
        let updates = fate == .canceled ? [] : Self.stopUpdates(stops, fate: fate, shift: changed ? Self.changeSeconds : 0, random: &delays)
        counts.selected += 1
        counts.stopTimeUpdates += updates.count
        switch fate {
        case .scheduled: break
        case .canceled: counts.canceled += 1
        case .skipped: counts.skipped += 1
        case .noData: counts.noData += 1
        }
        if changed { counts.changed += 1 }
        var copies = SplitMix64(seed: seed, streamNumber: Purpose.added.rawValue, key: key)
        if copies.unit() < Self.addedShare { addCopy(of: stops, trip: trip, start: start) }
        return RealtimeTripUpdate(entityID: "tu-" + tripID.description, trip: descriptor, timestamp: timestamp, stopTimeUpdates: updates)
    }

    /// The added trips collected so far, in the order of the trips they copy; the list starts afresh.
    package mutating func finishAdded() -> [RealtimeTripUpdate] {
        defer { added = [] }
        return added
    }

    /// Whether `--changed-percent` picks the entity with this key.
    private func isChanged(key: UInt64) -> Bool {
        var random = SplitMix64(seed: seed, streamNumber: Purpose.changed.rawValue, key: key)
        // Drawn even at 0 %, so that the draw is the same for every percentage: the entities changed at
        // 5 % are among those changed at 10 %.
        return random.unit() < changedFraction
    }

    /// Draws a trip's fate: one draw decides the kind, so the kinds exclude each other.
    static func fate(stopCount: Int, random: inout SplitMix64) -> Fate {
        let draw = random.unit()
        if draw < canceledShare { return .canceled }
        if draw < canceledShare + skippedShare {
            return stopCount >= 3 ? .skipped(random.int(in: 1 ... stopCount - 2)) : .scheduled
        }
        if draw < canceledShare + skippedShare + noDataShare {
            return stopCount >= 2 ? .noData(from: random.int(in: 1 ... stopCount - 1)) : .scheduled
        }
        return .scheduled
    }

    /// An update for every stop: its delay from the random walk plus `shift`, or its relationship.
    ///
    /// The walk takes a step at every stop, skipped and no-data ones included, so that a trip's delays do
    /// not depend on its fate.
    static func stopUpdates(_ stops: [ScheduledStop], fate: Fate, shift: Int, random: inout SplitMix64) -> [RealtimeStopTimeUpdate] {
        var updates: [RealtimeStopTimeUpdate] = []
        updates.reserveCapacity(stops.count)
        var delay = random.int(in: initialDelay)
        for (index, stop) in stops.enumerated() {
            if index > 0 { delay = min(max(delay + random.int(in: delayStep), delayBounds.lowerBound), delayBounds.upperBound) }
            var update = RealtimeStopTimeUpdate(stopSequence: stop.sequence, stopID: stop.stopID?.description)
            switch fate {
            case .skipped(let skipped) where skipped == index: update.relationship = .skipped
            case .noData(let from) where index >= from: update.relationship = .noData
            default:
                let event = RealtimeStopTimeEvent(delay: delay + shift)
                (update.arrival, update.departure) = (event, event)
            }
            updates.append(update)
        }
        return updates
    }

    /// Adds a trip `ADDED` to the timetable that runs the stops of a selected one ``addedOffset`` later,
    /// with absolute times (an added trip has no schedule for delays to count from).
    private mutating func addCopy(of stops: [ScheduledStop], trip: RealtimeSchedule.TripInfo, start: Int32) {
        let tripID = "added-\(added.count + 1)"
        let changed = isChanged(key: Self.key(GTFSID(tripID)))
        let offset = dayStart + Self.addedOffset + (changed ? Int64(Self.changeSeconds) : 0)
        let updates = stops.map { stop in
            RealtimeStopTimeUpdate(
                stopSequence: stop.sequence, stopID: stop.stopID?.description,
                arrival: (stop.arrival ?? stop.departure).map { RealtimeStopTimeEvent(time: offset + Int64($0)) },
                departure: (stop.departure ?? stop.arrival).map { RealtimeStopTimeEvent(time: offset + Int64($0)) })
        }
        let descriptor = RealtimeTrip(
            tripID: tripID, routeID: trip.routeID, directionID: trip.directionID,
            startTime: GTFSTime(seconds: start + Int32(Self.addedOffset)).description, startDate: serviceDate, relationship: .added)
        added.append(RealtimeTripUpdate(entityID: "tu-" + tripID, trip: descriptor, timestamp: timestamp, stopTimeUpdates: updates))
        counts.added += 1
        counts.stopTimeUpdates += updates.count
        if changed { counts.changed += 1 }
    }

    /// FNV-1a of an id's bytes: the key of its random streams.
    static func key(_ id: GTFSID) -> UInt64 {
        id.withUTF8 { bytes in bytes.reduce(0xCBF2_9CE4_8422_2325 as UInt64) { ($0 ^ UInt64($1)) &* 0x100_0000_01B3 } }
    }
}
