import Foundation
import GTFS
@testable import GTFSSynth
import LineReader
import TestSupport
import Testing

/// The generated stop times bundled with the Berlin 2025 subset: reproducible, and a timetable every
/// query can use.
@Suite("Generated stop times for the Berlin sample")
struct SampleStopTimesTests {
    static let subset = Repository.berlin.appendingPathComponent("vbb-2025-subset").path
    static let bundled = Repository.berlin.appendingPathComponent("vbb-2025-generated/stop_times.txt.gz").path

    @Test("The bundled file is what gtfs-synth stop-times writes for seed 1")
    func reproducible() throws {
        var bundled = ""
        _ = try Reader(path: Self.bundled).forEachLine { bundled += $0.string + "\n" }
        let generated = try SampleStopTimes(feedDirectory: Self.subset, seed: 1).csv()
        #expect(bundled == generated)
        #expect(try SampleStopTimes(feedDirectory: Self.subset, seed: 2).csv() != generated)
    }

    @Test("Every trip of the subset calls at two or more of its stops, in order, at times that never go back")
    func consistent() throws {
        var stopIDs = Set<String>()
        var tripIDs = Set<String>()
        var options = ParseOptions()
        options.tables = [.stops, .trips]
        try FeedParser(source: FeedSource(path: Self.subset), options: options).parse { batch in
            stopIDs.formUnion((batch.records(as: Stop.self) ?? []).map(\.stopID.description))
            tripIDs.formUnion((batch.records(as: Trip.self) ?? []).map(\.tripID.description))
        }
        var byTrip: [String: [StopTime]] = [:]
        let summary = try FeedParser(source: FeedSource(path: Self.bundled)).parse { batch in
            for stopTime in batch.records(as: StopTime.self) ?? [] { byTrip[stopTime.tripID.description, default: []].append(stopTime) }
        }
        #expect(summary.tables.first?.rowsRejected == 0)
        #expect(Set(byTrip.keys) == tripIDs)
        for (trip, stopTimes) in byTrip {
            #expect(stopTimes.count >= 2, "\(trip)")
            #expect(stopTimes.map(\.stopSequence) == Array(1 ... stopTimes.count), "\(trip)")
            let times = stopTimes.compactMap { $0.departureTime?.seconds }
            #expect(times == times.sorted() && times.count == stopTimes.count && (times.first ?? 0) >= 5 * 3600, "\(trip)")
            #expect(stopTimes.allSatisfy { stopIDs.contains($0.stopID?.description ?? "") }, "\(trip)")
        }
    }
}
