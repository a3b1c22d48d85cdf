import Benchmark
import Foundation
import GTFS
import GTFSImport

/// Importing the synthetic VBB `stop_times.txt` (5 M rows, 289 MB, from `scripts/make-data.sh`) into a fresh
/// SQLite database per iteration, through the public API (`GTFSStore.importFeedSynchronously`, default
/// options: atomic, lenient, indexes built and references checked after the load), like
/// `gtfs-import --table stop_times stop_times.txt`.
/// - `import.stopTimes`: wall clock, `mallocCountTotal`, and the throughput as rows stored per second
///   (`rows/s (K)`): package-benchmark's own `.throughput` counts whole iterations per second as an integer,
///   which is 0 for an import of about 16 s. Opening the new database is done before the measurement starts;
///   closing and deleting it after it stops.
/// - `import.stopTimes.peakRSS`: `peakMemoryResident`, kept apart because its sampling thread allocates.
let benchmarks: @Sendable () -> Void = {
    let directory = ProcessInfo.processInfo.environment["LINEREADER_BENCHMARK_DATA"] ?? "data"
    let path = directory + "/stop_times.txt"
    guard FileManager.default.isReadableFile(atPath: path) else {
        FileHandle.standardError.write(Data(
            "GTFSImportBenchmarks: missing input \(path). Create it first: run Benchmarks/scripts/make-data.sh\n".utf8))
        exit(1)
    }
    let rowsPerSecond = BenchmarkMetric.custom("rows/s (K)", polarity: .prefersLarger, useScalingFactor: false)
    let speed = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal, rowsPerSecond],
        timeUnits: .milliseconds,
        warmupIterations: 1,
        scalingFactor: .one,
        maxDuration: .seconds(120),
        maxIterations: 5
    )
    let memory = Benchmark.Configuration(
        metrics: [.peakMemoryResident],
        warmupIterations: 0,
        scalingFactor: .one,
        maxDuration: .seconds(60),
        maxIterations: 2
    )

    Benchmark("import.stopTimes", configuration: speed) { benchmark in
        let database = ScratchDatabase()
        let store = database.open()
        benchmark.startMeasurement()
        let clock = ContinuousClock()
        let start = clock.now
        let rows = importStopTimes(path, into: store)
        let elapsed = start.duration(to: clock.now)
        benchmark.stopMeasurement()
        database.close(store)
        let seconds = elapsed / .seconds(1)
        if seconds > 0 { benchmark.measurement(rowsPerSecond, Int(Double(rows) / seconds / 1000)) }
    }

    Benchmark("import.stopTimes.peakRSS", configuration: memory) { _ in
        let database = ScratchDatabase()
        let store = database.open()
        _ = importStopTimes(path, into: store)
        database.close(store)
    }
}

/// Imports `path` into `store` and returns the rows stored; stops the run when a row was not stored.
func importStopTimes(_ path: String, into store: GTFSStore) -> Int {
    do {
        let summary = try store.importFeedSynchronously(from: FeedSource(path: path, table: .stopTimes))
        guard let table = summary.table(.stopTimes), table.rowsRejected == 0, table.rowsStored == 5_000_000 else {
            fatalError("GTFSImportBenchmarks: stored \(summary.rowsStored) rows, rejected \(summary.rowsRejected)")
        }
        return table.rowsStored
    } catch {
        fatalError("GTFSImportBenchmarks: \(error)")
    }
}

/// A database file in a new temporary directory, deleted with its directory afterwards.
struct ScratchDatabase {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("gtfs-import-benchmark-\(UUID().uuidString)").path

    /// Creates the directory and opens a new store in it.
    func open() -> GTFSStore {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            return try GTFSStore(path: directory + "/gtfs.sqlite")
        } catch {
            fatalError("GTFSImportBenchmarks: cannot create a database in \(directory): \(error)")
        }
    }

    /// Closes the store, then deletes the directory.
    func close(_ store: GTFSStore) {
        do { try store.close() } catch { fatalError("GTFSImportBenchmarks: closing the database: \(error)") }
        remove()
    }

    /// Deletes the directory and the database in it.
    func remove() {
        try? FileManager.default.removeItem(atPath: directory)
    }
}
