// A realtime departure board against the scheduled one on the same store (scripts/realtime.sh): 100
// stations drawn with a fixed seed, a one-hour board with every platform, each station's two boards
// timed back to back in alternating order, warm. Prints the median, 90th percentile and maximum of each,
// in milliseconds, and the ratio of the medians.
//
// Usage: realtime-boards STORE [--schema NAME] DATE(YYYY-MM-DD) HOUR   (STORE: a file or postgresql://…)
import Foundation
import GTFS
import GTFSImport
import GTFSPostgres

@main
struct RealtimeBoards {
    static func main() throws {
        var arguments = Array(CommandLine.arguments.dropFirst())
        var schema = "gtfs"
        if let index = arguments.firstIndex(of: "--schema"), index + 1 < arguments.count {
            schema = arguments[index + 1]
            arguments.removeSubrange(index ... index + 1)
        }
        guard arguments.count == 3, let date = GTFSDate(arguments[1].replacingOccurrences(of: "-", with: "")), let hour = Int(arguments[2]) else {
            FileHandle.standardError.write(Data("usage: realtime-boards STORE [--schema NAME] YYYY-MM-DD HOUR\n".utf8))
            exit(2)
        }
        let store: any FeedStore =
            arguments[0].hasPrefix("postgres") ? try PostgresStore(connectionString: arguments[0], schema: schema) : try GTFSStore(readingFrom: arguments[0])
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try store.timeZone(feed: "default") ?? TimeZone(secondsFromGMT: 0)!
        let start = calendar.date(from: DateComponents(year: date.year, month: date.month, day: date.day, hour: hour))!
        let stations = try chosenStations(store, start: start)
        // Predictions of any age count (gtfs-query's --max-age none): the message is of a past date.
        let live = RealtimeOptions(maxAge: 100 * 365.25 * 86_400)
        var (plain, realtime): ([Double], [Double]) = ([], [])
        var (plainRows, liveRows, predicted) = (0, 0, 0)
        for pass in 0 ..< 2 {
            for (index, station) in stations.enumerated() {
                func timed(_ options: RealtimeOptions?) throws -> (Double, [StopEvent]) {
                    let clock = ContinuousClock.now
                    let events = try store.departures(from: station, between: start, and: start + 3600, feed: "default", realtime: options)
                    return (Double((ContinuousClock.now - clock) / .microseconds(1)) / 1000, events)
                }
                let order: [RealtimeOptions?] = index % 2 == 0 ? [nil, live] : [live, nil]
                for options in order {
                    let (milliseconds, events) = try timed(options)
                    guard pass == 1 else { continue }  // the first pass warms the caches
                    if options == nil {
                        plain.append(milliseconds)
                        plainRows += events.count
                    } else {
                        realtime.append(milliseconds)
                        liveRows += events.count
                        predicted += events.filter { $0.realtime?.status != .scheduled }.count
                    }
                }
            }
        }
        print("\(store is PostgresStore ? "PostgreSQL" : "SQLite"), \(stations.count) stations, \(date) \(hour):00–\(hour + 1):00")
        report("scheduled board", plain, rows: plainRows)
        report("realtime board", realtime, rows: liveRows, note: ", \(predicted) with realtime news")
        print(String(format: "realtime / scheduled (medians): %.2f", median(realtime) / median(plain)))
    }

    /// 100 stations with departures in the hour, drawn with a fixed seed (SplitMix64) from the stops by id.
    static func chosenStations(_ store: any FeedStore, start: Date) throws -> [String] {
        var state: UInt64 = 20_261_127
        func random() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        let leaving = try store.departures(between: start, and: start + 600, feed: "default", limit: 20_000)
        let stops = Array(Set(leaving.map(\.stopID.description))).sorted()
        var chosen: [String] = []
        while chosen.count < 100 && !stops.isEmpty { chosen.append(stops[Int(random() % UInt64(stops.count))]) }
        return chosen
    }

    static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

    static func report(_ label: String, _ times: [Double], rows: Int, note: String = "") {
        let sorted = times.sorted()
        print(String(
            format: "%-16@ median %7.3f ms  p90 %7.3f ms  max %7.3f ms  (%.1f rows per board%@)", label as NSString, sorted[sorted.count / 2],
            sorted[sorted.count * 9 / 10], sorted[sorted.count - 1], Double(rows) / Double(times.count), note as NSString))
    }
}
