public import Foundation
public import GTFS

/// A trip calling at a stop on a service date, with the instants it arrives and leaves: a row of a
/// departure or an arrival board, as a store's `departures(from:between:and:feed:limit:)` and
/// `arrivals(at:between:and:feed:limit:)` read them.
public struct StopEvent: Sendable, Hashable {
    /// The service date whose timetable the trip runs on (a trip past midnight belongs to the day before).
    public var serviceDate: GTFSDate
    /// When the trip arrives; `nil` when the stop time gives no arrival.
    public var arrival: Date?
    /// When the trip leaves; `nil` when the stop time gives no departure.
    public var departure: Date?
    /// The trip.
    public var tripID: GTFSID
    /// The stop it calls at: the stop asked for, or one of its platforms when that is a station.
    public var stopID: GTFSID
    /// The stop's name.
    public var stopName: String?
    /// The platform (`platform_code`), when the stop gives one.
    public var platformCode: String?
    /// The position of the stop in the trip (`stop_sequence`).
    public var stopSequence: Int
    /// The trip's route.
    public var routeID: GTFSID
    /// The route's short name (`M4`, `S1`).
    public var routeShortName: String?
    /// The route's long name.
    public var routeLongName: String?
    /// The route's mode of transport.
    public var routeType: RouteType?
    /// Where the trip is headed from this stop: `stop_headsign`, else `trip_headsign`.
    public var headsign: String?
    /// The name of the trip's last stop when it gives no ``headsign``, which a board shows instead; else `nil`.
    public var lastStopName: String?
    /// On an arrival board, the name of the trip's first stop: where it comes from. `nil` on departures.
    public var origin: String?
    /// The trip's `trip_short_name`, which riders know a train by (Amtrak `177`), when given.
    public var tripShortName: String?
    /// The trip's direction (`direction_id`), when given.
    public var directionID: Int?
    /// Whether the time is the timetable's: `false` for a trip of `frequencies.txt` with `exact_times` 0,
    /// whose runs only keep to a headway.
    public var isExactTime: Bool
    /// On a realtime board, what the realtime updates say of the call (``RealtimeStatus/scheduled`` without
    /// a fresh prediction); `nil` on a plain board.
    public var realtime: RealtimeCall?

    package init(
        serviceDate: GTFSDate, arrival: Date?, departure: Date?, tripID: GTFSID, stopID: GTFSID, stopName: String?,
        platformCode: String?, stopSequence: Int, routeID: GTFSID, routeShortName: String?, routeLongName: String?,
        routeType: RouteType?, headsign: String?, directionID: Int?, isExactTime: Bool,
        lastStopName: String? = nil, origin: String? = nil, tripShortName: String? = nil
    ) {
        self.serviceDate = serviceDate
        self.arrival = arrival
        self.departure = departure
        self.tripID = tripID
        self.stopID = stopID
        self.stopName = stopName
        self.platformCode = platformCode
        self.stopSequence = stopSequence
        self.routeID = routeID
        self.routeShortName = routeShortName
        self.routeLongName = routeLongName
        self.routeType = routeType
        self.headsign = headsign
        self.directionID = directionID
        self.isExactTime = isExactTime
        self.lastStopName = lastStopName
        self.origin = origin
        self.tripShortName = tripShortName
    }

    /// When the trip is expected to leave: the predicted departure where a fresh prediction gives one,
    /// else the timetable's.
    public var expectedDeparture: Date? {
        realtime?.status == .predicted ? realtime?.predictedDeparture ?? departure : departure
    }

    /// When the trip is expected to arrive: the predicted arrival where a fresh prediction gives one, else
    /// the timetable's.
    public var expectedArrival: Date? {
        realtime?.status == .predicted ? realtime?.predictedArrival ?? arrival : arrival
    }

    /// What a board shows as the trip's destination: ``headsign``, else ``lastStopName``.
    public var destination: String? { headsign ?? lastStopName }
}

extension StopEvent: CustomStringConvertible {
    /// One line: the time (UTC, ISO 8601), the line and trip, the stop and where the trip is headed (or,
    /// arriving, where it comes from), `2025-11-24T07:00:00Z M10 trip 1234 at S+U Alexanderplatz Bhf (Berlin)
    /// (de:11000:900100003::1) to S+U Warschauer Str. (Berlin), service date 20251124`.
    public var description: String {
        let time = (departure ?? arrival).map { ISO8601DateFormatter().string(from: $0) } ?? "no time"
        let line = [routeShortName ?? routeLongName ?? routeID.description, tripShortName].compactMap { $0 }.joined(separator: " ")
        let end = destination.map { " to \($0)" } ?? origin.map { " from \($0)" } ?? ""
        return "\(time) \(line) trip \(tripID) at \(stopName ?? "") (\(stopID))\(end), service date \(serviceDate)"
    }
}

/// What realtime updates say of a call on a board.
public struct RealtimeCall: Sendable, Hashable {
    /// Predicted, skipped, cancelled, added, or scheduled (no fresh prediction).
    public var status: RealtimeStatus
    /// The predicted instants; for an added trip, its times.
    public var predictedArrival: Date?, predictedDeparture: Date?
    /// Seconds late (negative: early); `nil` without a prediction.
    public var arrivalDelay: Int?, departureDelay: Int?

    /// `event` as a realtime board shows a call without predictions.
    package static func scheduled(_ event: StopEvent) -> StopEvent {
        var event = event
        event.realtime = RealtimeCall(status: .scheduled)
        return event
    }

    public init(status: RealtimeStatus, predictedArrival: Date? = nil, predictedDeparture: Date? = nil, arrivalDelay: Int? = nil, departureDelay: Int? = nil) {
        (self.status, self.predictedArrival, self.predictedDeparture) = (status, predictedArrival, predictedDeparture)
        (self.arrivalDelay, self.departureDelay) = (arrivalDelay, departureDelay)
    }
}
