import Benchmark
import LineReader

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `Reader.forEachLine` over the synthetic VBB `stop_times.txt` (5,000,000 rows, ~289 MB) and its gzip -6
/// copy, at 4 KiB, 64 KiB and 256 KiB chunks. One iteration reads the whole file once.
///
/// - `forEachLine.<plain|gzip>.<chunk>`: wall clock, throughput (files per second), `mallocCountTotal`, and
///   two custom rates: `decoded MB/s` (10^6 bytes of the plain file per second, i.e. output bytes for gzip)
///   and `lines/s`. Allocations are per iteration: a fixed handful per reader, independent of the 5 M lines,
///   so they are deterministic and gated by `Thresholds/`.
/// - `peakRSS.<plain|gzip>.<chunk>`: `peakMemoryResident` of the benchmark process while reading. Kept apart
///   because its sampling thread allocates, which would make `mallocCountTotal` proportional to wall time.
///
/// The inputs come from `scripts/make-data.sh`; set `LINEREADER_BENCHMARK_DATA` to use another directory.
let benchmarks: @Sendable () -> Void = {
    let data = BenchmarkData()
    if let problem = data.problem {
        // Fail loudly here: a benchmark.error() raised inside the measured closure is not surfaced by the
        // 1.38.1 tool (the run ends with an empty table and exit status 0); exiting fails the run.
        var text = problem + "\n"
        text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
        exit(1)
    }
    let megabytesPerSecond = BenchmarkMetric.custom("decoded MB/s", polarity: .prefersLarger, useScalingFactor: false)
    let linesPerSecond = BenchmarkMetric.custom("lines/s", polarity: .prefersLarger, useScalingFactor: false)

    let chunkSizes: [(label: String, bytes: Int)] = [("4KiB", 4 << 10), ("64KiB", 64 << 10), ("256KiB", 256 << 10)]
    let inputs: [(label: String, path: String)] = [("plain", data.plainPath), ("gzip", data.gzipPath)]

    let speed = Benchmark.Configuration(
        metrics: [.wallClock, .throughput, .mallocCountTotal, megabytesPerSecond, linesPerSecond],
        timeUnits: .milliseconds,
        warmupIterations: 1,
        scalingFactor: .one,
        maxDuration: .seconds(10),
        maxIterations: 10,
        thresholds: [
            // Allocation counts are deterministic (same count every iteration): allow no drift beyond 2.
            .mallocCountTotal: .init(absolute: [.p90: 2])
        ]
    )
    let memory = Benchmark.Configuration(
        metrics: [.peakMemoryResident],
        warmupIterations: 0,
        scalingFactor: .one,
        maxDuration: .seconds(10),
        maxIterations: 3
    )

    for input in inputs {
        for chunk in chunkSizes {
            Benchmark("forEachLine.\(input.label).\(chunk.label)", configuration: speed) { benchmark in
                // scalingFactor is .one: one call of this closure reads the whole file once.
                let clock = ContinuousClock()
                let start = clock.now
                let (lines, bytes) = readAll(input.path, chunkSize: chunk.bytes)
                let elapsed = start.duration(to: clock.now)
                // Stop here so that recording the custom metrics below is not measured (it may allocate).
                benchmark.stopMeasurement()
                data.check(input.path, lines: lines, bytes: bytes)
                let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
                if seconds > 0 {
                    benchmark.measurement(megabytesPerSecond, Int(Double(data.plainBytes) / seconds / 1e6))
                    benchmark.measurement(linesPerSecond, Int(Double(lines) / seconds))
                }
            }
            Benchmark("peakRSS.\(input.label).\(chunk.label)", configuration: memory) { _ in
                let (lines, bytes) = readAll(input.path, chunkSize: chunk.bytes)
                data.check(input.path, lines: lines, bytes: bytes)
            }
        }
    }
}

/// Reads a file with `forEachLine`, touching every line: returns the lines and their bytes (terminators excluded).
@inline(never)
func readAll(_ path: String, chunkSize: Int) -> (lines: Int, bytes: Int) {
    var lines = 0
    var bytes = 0
    do {
        let reader = try Reader(path: path, options: .init(chunkSize: chunkSize))
        try reader.forEachLine { line in
            lines &+= 1
            bytes &+= line.count
        }
    } catch {
        fatalError("LineReaderBenchmarks: reading \(path) failed: \(error)")
    }
    return (lines, bytes)
}

/// Locates the inputs and counts the plain file's lines once, outside any measurement.
struct BenchmarkData: Sendable {
    let plainPath: String
    let gzipPath: String
    /// Size of the plain file: the decoded byte count for both inputs.
    let plainBytes: Int
    /// Line count and line bytes of the plain file, checked after every iteration.
    let expectedLines: Int
    let expectedLineBytes: Int
    /// Why the benchmarks cannot run, or `nil`.
    let problem: String?

    init() {
        let directory: String
        if let override = getenv("LINEREADER_BENCHMARK_DATA") {
            directory = String(cString: override)
        } else {
            // <Benchmarks>/Benchmarks/LineReaderBenchmarks/LineReaderBenchmarks.swift -> <Benchmarks>/data
            directory = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false).dropLast(3)
                .joined(separator: "/") + "/data"
        }
        plainPath = directory + "/stop_times.txt"
        gzipPath = directory + "/stop_times.txt.gz"

        let missing = [plainPath, gzipPath].filter { (path: String) in access(path, R_OK) != 0 }
        var info = stat()
        guard missing.isEmpty, stat(plainPath, &info) == 0 else {
            problem = """
                LineReaderBenchmarks: missing input \(missing.joined(separator: ", ")). \
                Create it first: run Benchmarks/scripts/make-data.sh (5,000,000-row stop_times.txt and its .gz).
                """
            plainBytes = 0
            expectedLines = 0
            expectedLineBytes = 0
            return
        }
        plainBytes = Int(info.st_size)
        (expectedLines, expectedLineBytes) = readAll(plainPath, chunkSize: 256 << 10)
        problem = nil
    }

    /// Stops the run when a read did not see the whole file.
    func check(_ path: String, lines: Int, bytes: Int) {
        guard lines == expectedLines, bytes == expectedLineBytes else {
            fatalError(
                "LineReaderBenchmarks: \(path) gave \(lines) lines / \(bytes) bytes, "
                    + "expected \(expectedLines) / \(expectedLineBytes) (is stop_times.txt.gz stale? "
                    + "run scripts/make-data.sh --force)")
        }
    }
}
