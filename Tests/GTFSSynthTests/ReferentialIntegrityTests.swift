import Foundation
import GTFS
import GTFSSynth
import TestSupport
import Testing

@Suite("Synthetic feed: references and realistic texture")
struct ReferentialIntegrityTests {
    /// One scale-0.01 feed, parsed once for every test of the suite.
    static let feed: Result<ParsedFeed, any Error> = Result {
        let folder = try TemporaryFolder()
        try SyntheticFeed(scale: 0.01, seed: 42).write(toPath: folder.path, format: .directory)
        return try ParsedFeed(path: folder.path)
    }

    @Test("Every stop, route, service, shape, trip and level a row refers to exists")
    func references() throws {
        let feed = try Self.feed.get()
        let stops = Dictionary(feed.stops.map { ($0.stopID, $0) }, uniquingKeysWith: { first, _ in first })
        #expect(stops.count == feed.stops.count, "stop_id is unique")
        let levels = Set(feed.levels.map(\.levelID))
        for stop in feed.stops {
            if let parent = stop.parentStation {
                #expect(stops[parent]?.locationType == .station, "\(stop.stopID): parent \(parent)")
                #expect(stop.locationType == .stop)
            } else {
                #expect(stop.locationType == .station, "\(stop.stopID) has no parent")
            }
            if let level = stop.levelID { #expect(levels.contains(level), "\(stop.stopID): level \(level)") }
        }

        let agencies = Set(feed.agencies.compactMap(\.agencyID))
        #expect(agencies.count == feed.agencies.count)
        let routes = Set(feed.routes.map(\.routeID))
        #expect(routes.count == feed.routes.count, "route_id is unique")
        for route in feed.routes { #expect(route.agencyID.map(agencies.contains) == true, "\(route.routeID)") }

        let services = Set(feed.calendars.map(\.serviceID)).union(feed.calendarDates.map(\.serviceID))
        let shapes = Set(feed.shapePoints.map(\.shapeID))
        let trips = Set(feed.trips.map(\.tripID))
        #expect(trips.count == feed.trips.count, "trip_id is unique")
        for trip in feed.trips {
            #expect(routes.contains(trip.routeID), "\(trip.tripID): route \(trip.routeID)")
            #expect(services.contains(trip.serviceID), "\(trip.tripID): service \(trip.serviceID)")
            #expect(trip.shapeID.map(shapes.contains) == true, "\(trip.tripID): shape \(trip.shapeID ?? "-")")
        }

        var stopTimesPerTrip: [GTFSID: Int] = [:]
        for stopTime in feed.stopTimes {
            #expect(trips.contains(stopTime.tripID), "stop time of unknown trip \(stopTime.tripID)")
            let stop = stopTime.stopID.flatMap { stops[$0] }
            #expect(stop?.locationType == .stop, "\(stopTime.tripID): stop \(stopTime.stopID ?? "-")")
            stopTimesPerTrip[stopTime.tripID, default: 0] += 1
        }
        #expect(Set(stopTimesPerTrip.keys) == trips, "every trip has stop times")
        #expect(stopTimesPerTrip.values.allSatisfy { $0 >= 2 })

        for transfer in feed.transfers {
            for stop in [transfer.fromStopID, transfer.toStopID].compactMap({ $0 }) {
                #expect(stops[stop] != nil, "transfer stop \(stop)")
            }
            for route in [transfer.fromRouteID, transfer.toRouteID].compactMap({ $0 }) {
                #expect(routes.contains(route), "transfer route \(route)")
            }
            for trip in [transfer.fromTripID, transfer.toTripID].compactMap({ $0 }) {
                #expect(trips.contains(trip), "transfer trip \(trip)")
            }
        }
        // Each key (stops, trips, routes) once, as the reference requires and a store enforces.
        let keys = feed.transfers.map { t in
            [t.fromStopID, t.toStopID, t.fromTripID, t.toTripID, t.fromRouteID, t.toRouteID].map { $0 ?? "" }
        }
        #expect(Set(keys).count == keys.count, "\(keys.count - Set(keys).count) repeated transfer keys")
    }

    @Test("Stop times run forward in each trip; shapes are numbered in order")
    func ordering() throws {
        let feed = try Self.feed.get()
        var previous: StopTime?
        for stopTime in feed.stopTimes {
            let arrival = try #require(stopTime.arrivalTime)
            let departure = try #require(stopTime.departureTime)
            #expect(arrival <= departure)
            if let before = previous, before.tripID == stopTime.tripID {
                #expect(stopTime.stopSequence > before.stopSequence, "\(stopTime.tripID)")
                #expect(before.departureTime.map { $0 <= arrival } == true, "\(stopTime.tripID)")
            }
            previous = stopTime
        }
        var lastSequence: [GTFSID: Int] = [:]
        for point in feed.shapePoints {
            if let before = lastSequence[point.shapeID] { #expect(point.sequence > before) }
            lastSequence[point.shapeID] = point.sequence
        }
    }

    @Test("Berlin texture: VBB ids, quoted names with commas and umlauts, times past midnight, extended route types")
    func texture() throws {
        let feed = try Self.feed.get()
        let stationID = /de:1[12]\d{3}:9\d{8}/
        let platformID = /de:1[12]\d{3}:9\d{8}::\d+/
        for stop in feed.stops {
            if stop.locationType == .station {
                #expect(String(stop.stopID).wholeMatch(of: stationID) != nil, "\(stop.stopID)")
            } else {
                #expect(String(stop.stopID).wholeMatch(of: platformID) != nil, "\(stop.stopID)")
            }
            let latitude = try #require(stop.latitude)
            let longitude = try #require(stop.longitude)
            #expect((52.3 ... 52.7).contains(latitude) && (13.0 ... 13.8).contains(longitude), "\(stop.stopID)")
        }
        #expect(feed.stops.contains { String($0.stopID).hasPrefix("de:11000:") })
        #expect(feed.stops.contains { $0.parentStation != nil } && feed.stops.contains { $0.locationType == .station })
        #expect(feed.stops.contains { $0.levelID != nil })
        #expect(Set(feed.stops.map(\.wheelchairBoarding)).count >= 2)
        let names = feed.stops.compactMap(\.stopName)
        #expect(names.contains { $0.contains(",") })
        #expect(names.contains { $0.contains("ü") || $0.contains("ö") || $0.contains("ä") })
        #expect(names.contains { $0.contains("ß") })
        #expect(names.contains { $0.contains(", Gleis ") })
        let headsigns = feed.trips.compactMap(\.tripHeadsign)
        #expect(headsigns.contains { $0.contains("\"") })
        #expect(headsigns.contains { $0.contains(",") })
        #expect(Set(feed.trips.compactMap(\.directionID)).count == 2)

        let types = Set(feed.routes.map(\.routeType.code))
        #expect(types.isSuperset(of: [700, 109, 400, 900]), "\(types.sorted())")
        #expect(feed.stopTimes.contains { ($0.arrivalTime?.hours ?? 0) >= 24 }, "a time past 24:00")
        #expect(feed.stopTimes.contains { $0.pickupType != .regular })

        let start = try #require(GTFSDate("20250101"))
        let end = try #require(GTFSDate("20251231"))
        for date in feed.calendarDates { #expect(date.date >= start && date.date <= end) }
        #expect(Set(feed.calendarDates.map(\.exceptionType.code)) == [1, 2])
        #expect(feed.shapePoints.contains { $0.shapeDistTraveled != nil })
        #expect(feed.shapePoints.contains { $0.shapeDistTraveled == nil })
        #expect(feed.feedInfo.count == 1)
    }
}
