// Times the read side on a store (a VBB-scale synthetic feed, see scripts/read-queries.sh), warm, over
// 100 stations drawn with a fixed seed: a one-hour departure board with every platform, next to the
// plain indexed SQL lookup of the same stop times (stop and time range only: no calendar, no earlier
// service days, no names); the stops within 500 m of each station; a name search for each station's
// last word, first word and first letter. Prints the median, 90th percentile and maximum of each, in milliseconds.
//
// Usage: read-queries STORE [DATE YYYY-MM-DD] [HOUR]
import Foundation
import GRDB
import GTFS
import GTFSImport

@main
struct ReadQueries {
    static func main() throws {
        let arguments = CommandLine.arguments
        guard arguments.count >= 2 else {
            FileHandle.standardError.write(Data("usage: read-queries STORE [YYYY-MM-DD] [HOUR]\n".utf8))
            exit(2)
        }
        let store = try GTFSStore(readingFrom: arguments[1])
        let zone = try store.timeZone() ?? TimeZone(secondsFromGMT: 0)!
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone

        // A date the feed runs on: the given one, else the busiest of its service dates.
        let date: GTFSDate = try {
            if arguments.count >= 3, let date = GTFSDate(arguments[2].replacingOccurrences(of: "-", with: "")) { return date }
            let busiest = try store.pool.read { db in
                try Int.fetchOne(db, sql: "SELECT date FROM service_days GROUP BY date ORDER BY count(*) DESC, date LIMIT 1")
            }
            return GTFSDate(integerValue: busiest ?? 20250602)!
        }()
        let hour = arguments.count >= 4 ? Int(arguments[3]) ?? 8 : 8
        let start = calendar.date(from: DateComponents(year: date.year, month: date.month, day: date.day, hour: hour))!
        let end = start + 3600

        // 100 stations with platforms, drawn with a fixed seed (SplitMix64).
        var state: UInt64 = 20_261_124
        func random() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        let stations = try store.pool.read { db in
            try String.fetchAll(db, sql: "SELECT DISTINCT parent_station FROM stops WHERE parent_station IS NOT NULL ORDER BY parent_station")
        }
        var chosen: [String] = []
        while chosen.count < 100 && !stations.isEmpty { chosen.append(stations[Int(random() % UInt64(stations.count))]) }
        let stops = try chosen.map { station in try store.records(Stop.self, where: "stop_id = ? OR parent_station = ?", arguments: [station, station]) }

        func measure(_ label: String, _ body: (Int) throws -> Int) rethrows {
            // Warm: one untimed pass first.
            for index in chosen.indices { _ = try body(index) }
            var times: [Double] = []
            var results = 0
            for index in chosen.indices {
                let clock = ContinuousClock.now
                results += try body(index)
                times.append(Double((ContinuousClock.now - clock) / .microseconds(1)) / 1000)
            }
            times.sort()
            let line = String(
                format: "%-34@ median %7.3f ms  p90 %7.3f ms  max %7.3f ms  (%.1f results per query)", label as NSString,
                times[times.count / 2], times[times.count * 9 / 10], times[times.count - 1], Double(results) / Double(times.count))
            print(line)
        }

        print("store \(arguments[1]), \(chosen.count) stations, \(date) \(hour):00–\(hour + 1):00 \(zone.identifier)")
        try measure("departures(from:) one hour") { index in
            try store.departures(from: chosen[index], between: start, and: end).count
        }
        // The plain lookup: the same stops' stop times in the hour's range of times, nothing else.
        let secondsFrom = hour * 3600
        try measure("plain SQL: stop_times in the range") { index in
            let ids = stops[index].map(\.stopID.description)
            return try store.pool.read { db in
                try Row.fetchAll(
                    db,
                    sql: "SELECT trip_id, departure_time FROM stop_times WHERE stop_id IN (\(ids.map { _ in "?" }.joined(separator: ", "))) AND departure_time >= ? AND departure_time < ?",
                    arguments: StatementArguments(ids + [secondsFrom, secondsFrom + 3600])
                ).count
            }
        }
        try measure("stops(near:within: 500 m)") { index in
            guard let stop = stops[index].first, let latitude = stop.latitude, let longitude = stop.longitude else { return 0 }
            return try store.stops(near: latitude, longitude, within: 500).count
        }
        // A name's last word names the place ("Fährweg" of "Werder (Havel), Fährweg"); its first is often the
        // town, shared by thousands of stops: the worst case.
        try measure("stops(named:) last word") { index in
            let word = stops[index].first?.stopName?.split(separator: " ").last.map(String.init) ?? "a"
            return try store.stops(named: word).count
        }
        try measure("stops(named:) first word") { index in
            let word = stops[index].first?.stopName?.split(separator: " ").first.map(String.init) ?? "a"
            return try store.stops(named: word).count
        }
        // One letter, as a search field sends it after the first key press.
        try measure("stops(named:) first letter") { index in
            let letter = stops[index].first?.stopName?.first.map { String($0) } ?? "a"
            return try store.stops(named: letter).count
        }
    }
}
