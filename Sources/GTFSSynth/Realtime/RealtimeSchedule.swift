import Foundation
package import GTFS
import GTFSRealtime

/// What the generator needs of a feed besides its stop times: the trips that run on one date (route and
/// direction of each) and the feed's time zone. Only trips of services running on the date are kept, so
/// that the table stays a fraction of `trips.txt`.
package struct RealtimeSchedule {
    /// The route and direction of a trip, copied into its trip descriptor.
    package struct TripInfo {
        /// `route_id`.
        let routeID: String
        /// `direction_id`, when the feed gives one.
        let directionID: Int?
    }

    /// The trips that run on the date and are not frequency-based, by `trip_id`.
    package private(set) var trips: [GTFSID: TripInfo] = [:]
    /// The `agency_timezone` of the first agency by `agency_id` (no id first), as the stores choose it.
    package private(set) var timeZone: String?
    /// Rows the parser rejected as invalid (and left out) in the files read.
    package private(set) var rejectedRows = 0

    /// Reads `agency.txt`, `calendar.txt`, `calendar_dates.txt`, `trips.txt` and `frequencies.txt`.
    /// - Throws: ``GTFS/GTFSError`` when the feed cannot be read.
    package init(feedPath: String, date: GTFSDate) throws {
        var options = ParseOptions()
        options.tables = [.agency, .calendar, .calendarDates, .trips, .frequencies]
        var running: Set<GTFSID> = []
        var firstAgency: (id: String, zone: String)?
        var schedule = self
        // The parser delivers files in GTFSFile.loadOrder: agency, calendar and calendar_dates before
        // trips (so trips can be filtered as they come), frequencies after them.
        let summary = try FeedParser(source: FeedSource(path: feedPath), options: options).parse { batch in
            switch batch.file {
            case .agency:
                for agency in batch.records(as: Agency.self) ?? [] {
                    let id = agency.agencyID?.description ?? ""
                    if firstAgency.map({ id < $0.id }) ?? true { firstAgency = (id, agency.agencyTimezone) }
                }
            case .calendar:
                for service in batch.records(as: ServiceCalendar.self) ?? [] where Self.runs(service, on: date) {
                    running.insert(service.serviceID)
                }
            case .calendarDates:
                for exception in batch.records(as: CalendarDate.self) ?? [] where exception.date == date {
                    switch exception.exceptionType {
                    case .added: running.insert(exception.serviceID)
                    case .removed: running.remove(exception.serviceID)
                    case .unknown: break
                    }
                }
            case .trips:
                for trip in batch.records(as: Trip.self) ?? [] where running.contains(trip.serviceID) {
                    schedule.trips[trip.tripID] = TripInfo(routeID: trip.routeID.description, directionID: trip.directionID?.code)
                }
            case .frequencies:
                // Their stop times are a template, not a trip of their own: no one instance to update.
                for frequency in batch.records(as: Frequency.self) ?? [] { schedule.trips[frequency.tripID] = nil }
            default:
                break
            }
        }
        schedule.timeZone = firstAgency?.zone
        schedule.rejectedRows = summary.tables.reduce(0) { $0 + $1.rowsRejected }
        self = schedule
    }

    /// Whether `calendar.txt` says the service runs on `date` (before `calendar_dates.txt`'s exceptions).
    static func runs(_ service: ServiceCalendar, on date: GTFSDate) -> Bool {
        guard service.startDate <= date, date <= service.endDate else { return false }
        let days = [service.monday, service.tuesday, service.wednesday, service.thursday, service.friday, service.saturday, service.sunday]
        return days[date.weekday - 1]
    }
}

// MARK: - Stop times, a trip at a time

/// One row of `stop_times.txt`, as much as an update needs.
package struct ScheduledStop {
    /// `stop_sequence`.
    var sequence: Int
    /// `stop_id` (absent for GTFS-Flex rows that name a location instead).
    var stopID: GTFSID?
    /// `arrival_time` and `departure_time` in seconds from the service day's start, when given.
    var arrival: Int32?, departure: Int32?
}

/// Streams `stop_times.txt` and hands over the rows of one trip at a time, in stop sequence order.
///
/// Only the current trip's rows are held, so memory does not grow with the file. That needs each trip's
/// rows to be together (the synthetic feeds sort them by `trip_id` and `stop_sequence`); a trip whose rows
/// come back after another trip's is an error, not a reason to hold the whole file.
package enum StopTimeGroups {
    /// Calls `body` with each trip that `isWanted` accepts and its stops, in file order.
    /// - Returns: the rows the parser rejected as invalid (and left out).
    /// - Throws: ``StopTimeOrderError`` when a trip's rows are not together, ``GTFS/GTFSError`` when the feed
    ///   cannot be read, `SyntheticFeedError` when it has no `stop_times.txt`, or what `body` throws.
    package static func forEachTrip(
        feedPath: String, isWanted: (GTFSID) -> Bool, _ body: (GTFSID, [ScheduledStop]) throws -> Void
    ) throws -> Int {
        var options = ParseOptions()
        options.tables = [.stopTimes]
        var current: GTFSID?
        var wanted = false
        var rows: [ScheduledStop] = []
        // Every trip seen so far: an id costs 24 bytes, and finding one again is what betrays an unsorted file.
        var finished: Set<GTFSID> = []
        var rowNumber = 0
        func endTrip() throws {
            guard let trip = current else { return }
            finished.insert(trip)
            // Rows of a trip may come in any order of stop_sequence; the update lists its stops in order.
            if wanted { try body(trip, rows.sorted { $0.sequence < $1.sequence }) }
            rows.removeAll(keepingCapacity: true)
        }
        let summary = try FeedParser(source: FeedSource(path: feedPath), options: options).parse { batch in
            for (index, row) in (batch.records(as: StopTime.self) ?? []).enumerated() {
                rowNumber += 1
                if row.tripID != current {
                    try endTrip()
                    guard !finished.contains(row.tripID) else {
                        throw StopTimeOrderError(fileName: batch.fileName, tripID: row.tripID.description, line: batch.line(at: index), row: rowNumber)
                    }
                    current = row.tripID
                    wanted = isWanted(row.tripID)
                }
                guard wanted else { continue }
                rows.append(ScheduledStop(sequence: row.stopSequence, stopID: row.stopID, arrival: row.arrivalTime?.seconds, departure: row.departureTime?.seconds))
            }
        }
        try endTrip()
        guard summary.tables.contains(where: { $0.file == .stopTimes }) else {
            throw SyntheticFeedError(path: feedPath, message: "the feed has no stop_times.txt")
        }
        return summary.tables.reduce(0) { $0 + $1.rowsRejected }
    }
}

/// `stop_times.txt` does not hold each trip's rows together, so it cannot be read a trip at a time.
package struct StopTimeOrderError: Error, CustomStringConvertible {
    /// The file's name as the feed spells it.
    let fileName: String
    /// The trip whose rows came back.
    let tripID: String
    /// The line of the row that came back, when known.
    let line: Int?
    /// Its position among the data rows.
    let row: Int

    /// What is wrong, where, and what to do about it.
    package var description: String {
        let place = line.map { "line \($0)" } ?? "data row \(row)"
        return "\(fileName) is not grouped by trip_id: trip \(tripID) continues at \(place) after other trips' rows; "
            + "sort it by trip_id and stop_sequence (realtime reads it a trip at a time to keep memory bounded)"
    }
}
