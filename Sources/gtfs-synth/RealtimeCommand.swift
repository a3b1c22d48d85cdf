import ArgumentParser
import Foundation
import GTFS
import GTFSRealtime
import GTFSSynth
import ToolSupport

/// `gtfs-synth realtime`: a seeded GTFS-Realtime `TripUpdates` message for the trips of a feed that start in
/// a time window of one service date, for benchmarks and tests of the realtime import.
///
/// ```
/// USAGE: gtfs-synth realtime --feed <feed> --date <date> --from <from> --to <to> --out <out>
///                            [--seed <seed>] [--changed-percent <changed-percent>] [--timestamp <timestamp>]
/// ```
///
/// Each selected trip (it runs on `--date` and its first departure lies in `[--from, --to)`) gets an entity
/// `tu-TRIP_ID` with a stop time update for every one of its stops, delays from a seeded random walk; about
/// 2 % are `CANCELED`, 3 % skip one stop, 1 % have `NO_DATA` from some stop on, and about 0.5 % as many
/// `ADDED` trips (`tu-added-N`) copy a selected trip's stops five minutes later. `--changed-percent P`
/// gives about P % of the entities (never a cancelled one) 60 s more delay and leaves every other byte as
/// it is: two polls of one benchmark. The same arguments give the same bytes.
///
/// Example: `gtfs-synth realtime --feed feed.zip --date 20251124 --from 07:00:00 --to 08:00:00 --out trips.pb`
/// prints one line: the trips, stop time updates, cancelled, skipped, no-data, added and changed entities,
/// and the bytes written.
struct RealtimeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "realtime",
        abstract: "Write a seeded GTFS-Realtime TripUpdates message for the trips of a feed starting in a time window.",
        discussion: """
            A trip is selected when it runs on --date (calendar.txt, adjusted by calendar_dates.txt) and its \
            first departure lies in [--from, --to); frequency-based trips are left out. Each selected trip gets \
            an entity "tu-TRIP_ID" with a stop time update for every stop (stop_sequence and stop_id), delays \
            from a seeded random walk; about 2 % are CANCELED, 3 % skip one stop, 1 % have NO_DATA from some \
            stop on, and about 0.5 % as many ADDED trips ("tu-added-N") run a selected trip's stops five \
            minutes later. --changed-percent P adds 60 s to every delay of about P % of the entities and \
            changes nothing else: the message of a poll with P % of its trips changed. stop_times.txt is read \
            as a stream and must hold each trip's rows together. The same arguments give identical bytes.
            """
    )

    @Option(name: .long, help: "The feed: a directory or zip, as `gtfs-synth feed` writes it.")
    var feed: String

    @Option(name: .long, help: "The service date, YYYYMMDD.")
    var date: String

    @Option(name: .long, help: "The window's start, HH:MM:SS (GTFS time: past 24:00 for the next morning).")
    var from: String

    @Option(name: .long, help: "The window's end, excluded, HH:MM:SS.")
    var to: String

    @Option(name: .long, help: "The protobuf file to write (a FeedMessage).")
    var out: String

    @Option(name: .long, help: "Seed of every random choice; the same arguments give identical bytes.")
    var seed: UInt64 = 1

    @Option(name: .long, help: "Percentage of the entities, 0 to 100, whose every delay gets 60 s more.")
    var changedPercent: Double = 0

    @Option(name: .long, help: "The header's and each update's timestamp, seconds since 1970 (default: --from on --date in the feed's time zone).")
    var timestamp: Int64?

    /// Checks the date, the window, the percentage and the timestamp before anything is read.
    func validate() throws {
        guard GTFSDate(date) != nil else { throw ValidationError("--date must be YYYYMMDD, got \(date)") }
        guard let start = GTFSTime(from) else { throw ValidationError("--from must be HH:MM:SS, got \(from)") }
        guard let end = GTFSTime(to) else { throw ValidationError("--to must be HH:MM:SS, got \(to)") }
        guard start < end else { throw ValidationError("--to (\(to)) must be later than --from (\(from))") }
        guard (0 ... 100).contains(changedPercent) else {
            throw ValidationError("--changed-percent must be between 0 and 100, got \(changedPercent)")
        }
        if let timestamp, timestamp < 0 { throw ValidationError("--timestamp must not be negative, got \(timestamp)") }
    }

    /// Reads the feed's schedule of the date, streams its stop times into the message file and prints the
    /// closing line; any failure becomes one line on standard error and status 1.
    func run() throws {
        // validate() has checked all three.
        guard let serviceDate = GTFSDate(date), let start = GTFSTime(from), let end = GTFSTime(to) else { return }
        let clock = ContinuousClock()
        let started = clock.now
        do {
            let schedule = try RealtimeSchedule(feedPath: feed, date: serviceDate)
            guard let zoneName = schedule.timeZone else { throw ToolFailure("\(feed): agency.txt gives no agency_timezone") }
            guard let zone = TimeZone(identifier: zoneName) else { throw ToolFailure("\(feed): unknown agency_timezone \(zoneName)") }
            // Added trips' absolute times count from the service day's "noon minus 12 h", as GTFS times do.
            let dayStart = FeedClock(timeZone: zone).dayStart(serviceDate)
            let stamp = timestamp ?? dayStart + Int64(start.seconds)
            var generator = TripUpdateGenerator(
                seed: seed, serviceDate: serviceDate.description, window: start.seconds ..< end.seconds, dayStart: dayStart,
                timestamp: stamp, changedFraction: changedPercent / 100)
            let file = try MessageFile(path: out, timestamp: stamp)
            let rejected = try StopTimeGroups.forEachTrip(feedPath: feed, isWanted: { schedule.trips[$0] != nil }) { tripID, stops in
                guard let trip = schedule.trips[tripID], let update = generator.update(tripID: tripID, trip: trip, stops: stops) else { return }
                try file.append(update)
            }
            // Added trips come last, so that the scheduled entities keep their places whatever is added.
            for update in generator.finishAdded() { try file.append(update) }
            let bytes = try file.finish()
            let elapsed = clock.now - started
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
            if schedule.rejectedRows + rejected > 0 {
                // Lenient, as the importer is: a bad row costs its trip or stop, not the whole message.
                StandardError.line("warning: \(schedule.rejectedRows + rejected) invalid rows of the feed were left out")
            }
            StandardError.line(generator.counts.summary(bytes: bytes, path: out, seconds: seconds))
        } catch let failure as ToolFailure {
            throw failure
        } catch {
            throw ToolFailure("\(error)")
        }
    }
}
