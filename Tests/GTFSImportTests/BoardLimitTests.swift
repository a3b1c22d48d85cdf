import Foundation
import GTFS
import GTFSImport
import TestSupport
import Testing

/// A board's size: `departures(from:…)` returns at most ``/GTFSStoreCore/FeedStoreLimits/boardLimit`` unless asked for more, and
/// `forEachDeparture(from:…)` hands on any number in time order.
@Suite("Departure boards: the default limit, and streaming")
struct BoardLimitTests {
    @Test("Two hours of four trips every second: 1,000 by default, all 28,800 streamed, the same order")
    func limitAndStream() throws {
        let folder = try TemporaryFolder()
        var files = FeedFiles.feed(stops: 2, trips: 4, stopsPerTrip: 2)
        // Every trip from S0 to S1; each runs every second of the day.
        files["stop_times.txt"] = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
            + (0 ..< 4).map { "T\($0),00:00:00,00:00:00,S0,1\nT\($0),00:05:00,00:05:00,S1,2\n" }.joined()
        files["frequencies.txt"] = "trip_id,start_time,end_time,headway_secs\n" + (0 ..< 4).map { "T\($0),00:00:00,24:00:00,1\n" }.joined()
        let store = try GTFSStore(path: folder.file("board.sqlite"))
        _ = try store.importFeedSynchronously(from: try FeedSource(path: try FeedFiles.directory(files, in: folder)))
        let stop = "S0"
        // Monday 2025-06-02, 00:00 in Berlin.
        let day = Date(timeIntervalSince1970: 1_748_815_200)
        let end = day.addingTimeInterval(2 * 3600)

        let board = try store.departures(from: stop, between: day, and: end)
        #expect(board.count == FeedStoreLimits.boardLimit)
        var streamed: [StopEvent] = []
        try store.forEachDeparture(from: stop, between: day, and: end) { streamed.append($0) }
        #expect(streamed.count == 4 * 2 * 3600)
        #expect(Array(streamed.prefix(FeedStoreLimits.boardLimit)) == board)
        let instants = streamed.compactMap(\.departure)
        #expect(instants.count == streamed.count && instants == instants.sorted())
        #expect(try store.departures(from: stop, between: day, and: end, limit: 30_000).count == streamed.count)
        var arrivals = 0
        try store.forEachArrival(at: stop, between: day, and: end, limit: 5) { _ in arrivals += 1 }
        #expect(arrivals <= 5)
    }
}
