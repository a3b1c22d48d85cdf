import Benchmark
import GTFS
import LineReader

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The numeric and short fields of a stop_times row: ids of 15 bytes or fewer are stored inline in
/// `String`, times and integers are parsed from the bytes, so decoding one allocates nothing.
struct StopTimeNumbers: GTFSRecord {
    static let file = GTFSFile.stopTimes
    enum Field: Int, GTFSField {
        case tripID, arrival, departure, sequence, pickup, dropOff
        var spec: FieldSpec {
            switch self {
            case .tripID: FieldSpec("trip_id", .id, .required)
            case .arrival: FieldSpec("arrival_time", .time)
            case .departure: FieldSpec("departure_time", .time)
            case .sequence: FieldSpec("stop_sequence", .integer, .required)
            case .pickup: FieldSpec("pickup_type", .enumeration)
            case .dropOff: FieldSpec("drop_off_type", .enumeration)
            }
        }
        static let key: [Field] = [.tripID, .sequence]
    }
    var tripID: String
    var arrival: GTFSTime?
    var departure: GTFSTime?
    var sequence: Int
    var pickup: PickupDropOffType?
    var dropOff: PickupDropOffType?

    init(row: CSVRow<Field>) throws {
        tripID = try row.requiredText(.tripID)
        arrival = try row.time(.arrival)
        departure = try row.time(.departure)
        sequence = try row.requiredNonNegativeInt(.sequence)
        pickup = try row.enumeration(.pickup)
        dropOff = try row.enumeration(.dropOff)
    }

    func write<Sink: FieldSink>(to sink: inout Sink) {
        sink.write(tripID)
        sink.write(arrival)
        sink.write(departure)
        sink.write(sequence)
        sink.write(pickup)
        sink.write(dropOff)
    }
}

/// Parsing the synthetic VBB `stop_times.txt` (5 M rows, 289 MB, from `scripts/make-data.sh`) into typed
/// records with `TableParser`, batches of 1,024.
/// - `parse.stopTimes.full`: every field into `StopTime` (ids are `GTFSID`s: VBB stop ids of 21–23 bytes are
///   held inline, so this allocates nothing per row either).
/// - `parse.stopTimes.numeric`: `StopTimeNumbers`, the quote-free path with numeric and short fields only:
///   its `mallocCountTotal` shows no allocation per row (a fixed number per batch).
let benchmarks: @Sendable () -> Void = {
    let directory = getenv("LINEREADER_BENCHMARK_DATA").map { String(cString: $0) } ?? "data"
    let path = directory + "/stop_times.txt"
    guard access(path, R_OK) == 0 else {
        var text = "GTFSParseBenchmarks: missing input \(path). Create it first: run Benchmarks/scripts/make-data.sh\n"
        text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
        exit(1)
    }
    let rowsPerSecond = BenchmarkMetric.custom("rows/s (K)", polarity: .prefersLarger, useScalingFactor: false)
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal, rowsPerSecond],
        timeUnits: .milliseconds,
        warmupIterations: 1,
        scalingFactor: .one,
        maxDuration: .seconds(15),
        maxIterations: 5,
        thresholds: [
            // The same count in every iteration and every run (checked with Thresholds/6.3): allow no drift beyond 2.
            .mallocCountTotal: .init(absolute: [.p90: 2])
        ]
    )

    func run<R: GTFSRecord>(_ type: R.Type, _ benchmark: Benchmark) {
        let clock = ContinuousClock()
        let start = clock.now
        var rows = 0
        do {
            let reader = try Reader(path: path, chunkSize: 64 << 10)
            let summary = try TableParser.parse(type, from: reader, fileName: "stop_times.txt") { rows += $0.count }
            guard summary.rowsRejected == 0, rows == 5_000_000 else {
                fatalError("GTFSParseBenchmarks: parsed \(rows) rows, rejected \(summary.rowsRejected)")
            }
        } catch {
            fatalError("GTFSParseBenchmarks: \(error)")
        }
        let elapsed = start.duration(to: clock.now)
        benchmark.stopMeasurement()
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        if seconds > 0 { benchmark.measurement(rowsPerSecond, Int(Double(rows) / seconds / 1000)) }
    }

    Benchmark("parse.stopTimes.full", configuration: configuration) { benchmark in run(StopTime.self, benchmark) }
    Benchmark("parse.stopTimes.numeric", configuration: configuration) { benchmark in run(StopTimeNumbers.self, benchmark) }
}
