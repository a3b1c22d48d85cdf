import Foundation
import GTFS
import GTFSRealtime
import TestSupport
import Testing

/// `gtfs-synth realtime` through the binary: a synthetic feed's morning hour as TripUpdates, the same bytes
/// for the same arguments, `--changed-percent` changing only the entities it picks, counts that add up,
/// the trips it selects, and a stop_times.txt it cannot stream.
@Suite("gtfs-synth realtime")
struct SynthRealtimeTests {
    /// One decoded entity of a message: its id, the SHA-256 of its bytes and its update.
    struct Entity {
        let id: String
        let digest: String
        let update: RealtimeTripUpdate
    }

    @Test("The same arguments give the same bytes: one whole message, the window's trips, every stop")
    func sameBytesForSameArguments() throws {
        let folder = try TemporaryFolder()
        let (feed, date) = try Self.syntheticFeed(in: folder)
        let arguments = ["realtime", "--feed", feed, "--date", date, "--from", "07:00:00", "--to", "08:00:00", "--seed", "5"]
        let first = try Self.generate(arguments, out: folder.file("first.pb"))
        let second = try Self.generate(arguments, out: folder.file("second.pb"))
        #expect(first.bytes == second.bytes)
        #expect(first.stderr.contains("trips selected"))

        let feedMessage = try RealtimeFeed(data: first.bytes)
        #expect(feedMessage.header.version == "2.0")
        #expect(feedMessage.header.incrementality == .fullDataset)
        #expect(feedMessage.header.timestamp == (try Self.berlinInstant(date: date, hour: 7)))
        let entities = try Self.entities(first.bytes)
        #expect(entities.count >= 20, "a morning hour of a scale-0.01 feed has dozens of trips")
        for entity in entities where entity.update.trip.relationship != .added {
            let trip = entity.update.trip
            #expect(entity.id == "tu-" + (trip.tripID ?? ""))
            #expect(trip.startDate == date)
            #expect(trip.startTime.map { $0 >= "07:00:00" && $0 < "08:00:00" } == true, "\(trip.startTime ?? "")")
            #expect(trip.routeID != nil && trip.directionID != nil)
            #expect(entity.update.timestamp == feedMessage.header.timestamp)
            if trip.relationship == .canceled { continue }
            #expect(entity.update.stopTimeUpdates.count >= 2)
            #expect(entity.update.stopTimeUpdates.allSatisfy { $0.stopSequence != nil && $0.stopID != nil })
        }
        // Written in chunks, the file is still exactly the encoding of the whole message.
        let whole = RealtimeMessage(timestamp: feedMessage.header.timestamp, tripUpdates: entities.map(\.update))
        #expect(try whole.serializedData() == first.bytes)
    }

    @Test("--changed-percent 10 changes about 10 % of the entities, by 60 s of delay, and nothing else")
    func changedPercentChangesOnlyItsEntities() throws {
        let folder = try TemporaryFolder()
        let (feed, date) = try Self.syntheticFeed(in: folder)
        let arguments = ["realtime", "--feed", feed, "--date", date, "--from", "06:00:00", "--to", "09:00:00"]
        let base = try Self.entities(try Self.generate(arguments, out: folder.file("base.pb")).bytes)
        let run = try Self.generate(arguments + ["--changed-percent", "10"], out: folder.file("changed.pb"))
        let changed = try Self.entities(run.bytes)
        try #require(base.map(\.id) == changed.map(\.id), "same entities in the same order")
        var differing = 0
        for (before, after) in zip(base, changed) where before.digest != after.digest {
            differing += 1
            #expect(Self.shifted(before.update, by: 60) == after.update, "\(before.id): only 60 s later")
        }
        let share = Double(differing) / Double(base.count)
        #expect(share > 0.04 && share < 0.18, "\(differing) of \(base.count) entities changed")
        #expect(try Self.counts(run.stderr)["changed"] == differing)
    }

    @Test("The closing line's counts add up to what the message holds")
    func countsAddUp() throws {
        let folder = try TemporaryFolder()
        let (feed, date) = try Self.syntheticFeed(in: folder)
        // The whole service day: enough trips for every kind of entity to occur.
        let out = folder.file("day.pb")
        let run = try Self.generate(["realtime", "--feed", feed, "--date", date, "--from", "00:00:00", "--to", "30:00:00"], out: out)
        let counts = try Self.counts(run.stderr)
        let entities = try Self.entities(run.bytes).map(\.update)
        let scheduled = entities.filter { $0.trip.relationship != .added }
        let added = entities.filter { $0.trip.relationship == .added }
        #expect(scheduled.count == counts["trips selected"])
        #expect(added.count == counts["added"])
        #expect(added.allSatisfy { $0.entityID.hasPrefix("tu-added-") && $0.trip.tripID.map { "tu-" + $0 } == $0.entityID })
        #expect(entities.reduce(0) { $0 + $1.stopTimeUpdates.count } == counts["stop time updates"])
        let canceled = scheduled.filter { $0.trip.relationship == .canceled }
        #expect(canceled.count == counts["canceled"])
        #expect(canceled.allSatisfy { $0.stopTimeUpdates.isEmpty })
        let skipped = scheduled.filter { $0.stopTimeUpdates.contains { $0.relationship == .skipped } }
        #expect(skipped.count == counts["skipped"])
        #expect(skipped.allSatisfy { update in
            let stops = update.stopTimeUpdates
            return stops.filter { $0.relationship == .skipped }.count == 1 && stops.first?.relationship != .skipped
                && stops.last?.relationship != .skipped
        })
        #expect(scheduled.filter { $0.stopTimeUpdates.contains { $0.relationship == .noData } }.count == counts["no-data"])
        #expect(counts["changed"] == 0)
        #expect(counts["bytes"] == run.bytes.count)
        for kind in ["canceled", "skipped", "no-data", "added"] { #expect((counts[kind] ?? 0) > 0, "\(kind) over a whole day") }
    }

    @Test("Trips are selected by service day, calendar exceptions and first departure; frequency trips are left out")
    func selection() throws {
        let folder = try TemporaryFolder()
        let feed = try Self.smallFeed(in: folder, stopTimes: Self.sortedStopTimes)
        let run = try Self.generate(
            ["realtime", "--feed", feed, "--date", "20250515", "--from", "07:00:00", "--to", "08:00:00", "--timestamp", "1700000000"],
            out: folder.file("small.pb"))
        let entities = try Self.entities(run.bytes)
        #expect(entities.map(\.id) == ["tu-T1", "tu-T4"])
        let t4 = try #require(entities.last?.update)
        #expect(t4.trip.routeID == "R2" && t4.trip.directionID == 1 && t4.trip.startTime == "07:59:59")
        #expect(try RealtimeFeed(data: run.bytes).header.timestamp == 1_700_000_000)
        #expect(entities.allSatisfy { $0.update.timestamp == 1_700_000_000 })
        let t1 = try #require(entities.first?.update)
        if t1.trip.relationship != .canceled {
            #expect(t1.stopTimeUpdates.map(\.stopSequence) == [1, 2, 3], "rows of a trip are put in stop order")
            #expect(t1.stopTimeUpdates.map(\.stopID) == ["S1", "S2", "S3"])
        }
    }

    @Test("A stop_times.txt whose trips' rows are not together fails, and leaves no file")
    func unsortedStopTimesFail() throws {
        let folder = try TemporaryFolder()
        let feed = try Self.smallFeed(in: folder, stopTimes: Self.sortedStopTimes + "T1,07:20:00,07:20:00,S4,4\n")
        let out = folder.file("unsorted.pb")
        let result = try ToolRunner.run(
            "gtfs-synth", ["realtime", "--feed", feed, "--date", "20250515", "--from", "07:00:00", "--to", "08:00:00", "--out", out])
        #expect(result.status == 1)
        #expect(result.stderr.contains("not grouped by trip_id: trip T1"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).allSatisfy { !$0.contains(".pb") })
    }

    @Test("The sample's trip-updates.pb is what SampleData/berlin/make-trip-updates.sh makes")
    func sampleMessageIsReproducible() throws {
        let folder = try TemporaryFolder()
        let berlin = Repository.berlin.path
        try FileManager.default.createDirectory(atPath: folder.file("feed"), withIntermediateDirectories: true)
        for file in try FileManager.default.contentsOfDirectory(atPath: berlin + "/vbb-2025-subset") where file.hasSuffix(".txt") {
            try FileManager.default.createSymbolicLink(atPath: folder.file("feed/" + file), withDestinationPath: berlin + "/vbb-2025-subset/" + file)
        }
        // `lines` prints the gzip file's lines as they are (LF, with a final newline).
        let stopTimes = try ToolRunner.run("lines", [berlin + "/vbb-2025-generated/stop_times.txt.gz"])
        try #require(stopTimes.status == 0)
        try folder.write(Array(stopTimes.stdout), name: "feed/stop_times.txt")
        let (bytes, _) = try Self.generate(
            ["realtime", "--feed", folder.file("feed"), "--date", "20251124", "--from", "06:30:00", "--to", "08:10:00",
             "--timestamp", "1763967480", "--seed", "1"], out: folder.file("trip-updates.pb"))
        #expect(bytes == (try Data(contentsOf: URL(fileURLWithPath: berlin + "/vbb-2025-generated/trip-updates.pb"))))
    }

    // MARK: Helpers

    /// Runs the tool, which must succeed, and returns the message it wrote and its closing line.
    static func generate(_ arguments: [String], out: String) throws -> (bytes: Data, stderr: String) {
        let result = try ToolRunner.run("gtfs-synth", arguments + ["--out", out])
        try #require(result.status == 0, "\(result.stderr)")
        return (try Data(contentsOf: URL(fileURLWithPath: out)), result.stderr)
    }

    /// The message's entities, each a trip update.
    static func entities(_ bytes: Data) throws -> [Entity] {
        var entities: [Entity] = []
        try RealtimeFeed(data: bytes).forEachEntity { entity, digest in
            guard case .tripUpdate(let update) = entity else {
                Issue.record("not a trip update: \(entity.id)")
                return
            }
            entities.append(Entity(id: entity.id, digest: digest, update: update))
        }
        return entities
    }

    /// The numbers of the closing line, by what they count (`bytes` for the bytes written).
    static func counts(_ stderr: String) throws -> [String: Int] {
        let line = try #require(stderr.split(separator: "\n").first { $0.contains("trips selected") })
        var counts: [String: Int] = [:]
        for part in line.split(whereSeparator: { $0 == "," || $0 == ";" }) {
            let words = part.split(separator: " ")
            guard let number = words.first.flatMap({ Int($0) }) else {
                // The tool's name leads the first part: "gtfs-synth: 68 trips selected".
                if words.count > 1, let number = Int(words[1]) { counts[words.dropFirst(2).joined(separator: " ")] = number }
                continue
            }
            counts[words.dropFirst().prefix(while: { $0 != "written" }).joined(separator: " ")] = number
        }
        return counts
    }

    /// An update with every delay (and every absolute time) `seconds` later.
    static func shifted(_ update: RealtimeTripUpdate, by seconds: Int) -> RealtimeTripUpdate {
        func shift(_ event: RealtimeStopTimeEvent?) -> RealtimeStopTimeEvent? {
            event.map { RealtimeStopTimeEvent(delay: $0.delay.map { $0 + seconds }, time: $0.time.map { $0 + Int64(seconds) }) }
        }
        var result = update
        result.stopTimeUpdates = update.stopTimeUpdates.map { stop in
            var stop = stop
            (stop.arrival, stop.departure) = (shift(stop.arrival), shift(stop.departure))
            return stop
        }
        return result
    }

    /// The Unix time of `hour`:00 on `date` (`YYYYMMDD`) in Berlin, the synthetic feeds' zone.
    static func berlinInstant(date: String, hour: Int) throws -> Int64 {
        let day = try #require(GTFSDate(date))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "Europe/Berlin"))
        let instant = try #require(calendar.date(from: DateComponents(year: day.year, month: day.month, day: day.day, hour: hour)))
        return Int64(instant.timeIntervalSince1970)
    }

    /// A scale-0.01 feed written by `gtfs-synth feed`, and the weekday of 2025 on which most of its trips run
    /// (a small feed has few services, and on many days none of them runs).
    static func syntheticFeed(in folder: TemporaryFolder) throws -> (path: String, date: String) {
        let path = folder.file("feed.zip")
        let result = try ToolRunner.run("gtfs-synth", ["feed", "--scale", "0.01", "--seed", "3", "--out", path, "--quiet"])
        try #require(result.status == 0, "\(result.stderr)")
        var calendars: [ServiceCalendar] = []
        var exceptions: [CalendarDate] = []
        var tripsPerService: [GTFSID: Int] = [:]
        var options = ParseOptions()
        options.tables = [.calendar, .calendarDates, .trips]
        try FeedParser(source: FeedSource(path: path), options: options).parse { batch in
            calendars += batch.records(as: ServiceCalendar.self) ?? []
            exceptions += batch.records(as: CalendarDate.self) ?? []
            for trip in batch.records(as: Trip.self) ?? [] { tripsPerService[trip.serviceID, default: 0] += 1 }
        }
        var best = (trips: 0, date: "")
        var day = try #require(GTFSDate(year: 2025, month: 1, day: 1))
        while day.year == 2025 {
            if day.weekday <= 5 {
                let weekday = day.weekday
                var running = Set(calendars.filter { calendar in
                    let days = [calendar.monday, calendar.tuesday, calendar.wednesday, calendar.thursday, calendar.friday]
                    return calendar.startDate <= day && day <= calendar.endDate && days[weekday - 1]
                }.map(\.serviceID))
                for exception in exceptions where exception.date == day {
                    if exception.exceptionType == .added { running.insert(exception.serviceID) } else { running.remove(exception.serviceID) }
                }
                let trips = running.reduce(0) { $0 + (tripsPerService[$1] ?? 0) }
                if trips > best.trips { best = (trips, day.description) }
            }
            day = try #require(day.adding(days: 1))
        }
        try #require(best.trips > 0)
        return (path, best.date)
    }

    /// Rows of the small feed's trips, each trip's together; T1's out of stop order on purpose.
    static let sortedStopTimes = """
        trip_id,arrival_time,departure_time,stop_id,stop_sequence
        T1,07:10:00,07:10:00,S2,2
        T1,07:00:00,07:00:00,S1,1
        T1,07:15:00,07:15:00,S3,3
        T2,07:00:00,07:00:00,S1,1
        T2,07:10:00,07:10:00,S2,2
        T3,07:30:00,07:30:00,S1,1
        T3,07:40:00,07:40:00,S2,2
        T4,07:59:59,07:59:59,S3,1
        T4,08:10:00,08:10:00,S1,2
        T5,08:00:00,08:00:00,S1,1
        T5,08:10:00,08:10:00,S2,2
        T6,06:59:59,06:59:59,S1,1
        T6,07:10:00,07:10:00,S2,2

        """

    /// A feed folder for 2025-05-15 (a Thursday): T1 runs (service A); T2 is frequency-based; T3's service B
    /// is removed that day and T4's service C added; T5 starts at 08:00 and T6 at 06:59:59, outside
    /// 07:00–08:00.
    static func smallFeed(in folder: TemporaryFolder, stopTimes: String) throws -> String {
        let files = [
            "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\n1,A,https://a.example,Europe/Berlin\n",
            "calendar.txt": """
                service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
                A,1,1,1,1,1,0,0,20250101,20251231
                B,1,1,1,1,1,0,0,20250101,20251231
                C,0,0,0,0,0,1,1,20250101,20251231

                """,
            "calendar_dates.txt": "service_id,date,exception_type\nB,20250515,2\nC,20250515,1\nA,20250516,2\n",
            "trips.txt": "route_id,service_id,trip_id,direction_id\nR1,A,T1,0\nR1,A,T2,1\nR1,B,T3,0\nR2,C,T4,1\nR1,A,T5,0\nR1,A,T6,0\n",
            "frequencies.txt": "trip_id,start_time,end_time,headway_secs\nT2,07:00:00,09:00:00,600\n",
            "stop_times.txt": stopTimes,
        ]
        for (name, text) in files { try folder.write(text, name: "small/" + name) }
        return folder.file("small")
    }
}
