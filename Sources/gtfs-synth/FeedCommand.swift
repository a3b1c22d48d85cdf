import ArgumentParser
import Foundation
import GTFSSynth
import ToolSupport

/// `gtfs-synth [feed]`: writes a deterministic, VBB-scale synthetic GTFS feed (see `SyntheticFeed`).
///
/// ```
/// USAGE: gtfs-synth --scale <scale> --out <out> [--seed <seed>] [--crlf] [--format <format>] [--level <level>] [--quiet]
///
/// OPTIONS:
///   --scale <scale>     Size relative to Berlin's VBB feed, 0.01 to 10 (1.0 ≈ 42 000 stops, 250 000 trips,
///                       6 000 000 stop times, 5 000 000 shape points).
///   --out <out>         The zip file or directory to write.
///   --seed <seed>       Seed of every random choice; the same scale and seed give identical bytes. (default: 42)
///   --crlf              End lines with CRLF instead of LF.
///   --format <format>   zip, dir (*.txt) or gzip-dir (*.txt.gz); default: zip when --out ends in .zip, else dir.
///   --level <level>     zlib compression level for zip and gzip-dir, 1 (fastest) to 9 (smallest). (default: 6)
///   --quiet             Print nothing on success.
/// ```
///
/// Example: `gtfs-synth --scale 1.0 --out /tmp/synth/feed.zip` prints one line per file (rows,
/// uncompressed bytes), then the total and the time taken.
struct FeedCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "feed",
        abstract: "Write a deterministic, VBB-scale synthetic GTFS feed (zip, directory or gzip directory).",
        discussion: """
            Scale 1.0 is about the size of Berlin's VBB feed: 42 000 stops, 250 000 trips, 6 000 000 stop times, \
            5 000 000 shape points; counts grow linearly with the scale. The same scale and seed give \
            byte-identical output.
            """
    )

    @Option(name: .long, help: "Size relative to Berlin's VBB feed, 0.01 to 10.")
    var scale: Double

    @Option(name: .long, help: "The zip file or directory to write.")
    var out: String

    @Option(name: .long, help: "Seed of every random choice; the same scale and seed give identical bytes.")
    var seed: UInt64 = 42

    @Flag(name: .long, help: "End lines with CRLF instead of LF.")
    var crlf = false

    @Option(name: .long, help: "zip, dir (*.txt) or gzip-dir (*.txt.gz); default: zip when --out ends in .zip, else dir.")
    var format: String?

    @Option(name: .long, help: "zlib compression level for zip and gzip-dir, 1 (fastest) to 9 (smallest).")
    var level = 6

    @Flag(name: .long, help: "Print nothing on success.")
    var quiet = false

    func validate() throws {
        guard SyntheticFeed.scaleRange.contains(scale) else {
            throw ValidationError("--scale must be between 0.01 and 10, got \(scale)")
        }
        guard (1 ... 9).contains(level) else { throw ValidationError("--level must be between 1 and 9, got \(level)") }
        if let format, SyntheticFeed.Format(rawValue: format) == nil {
            throw ValidationError("--format must be zip, dir or gzip-dir, got \(format)")
        }
    }

    func run() throws {
        let chosen = format.flatMap(SyntheticFeed.Format.init(rawValue:)) ?? .inferred(fromPath: out)
        let clock = ContinuousClock()
        let started = clock.now
        let counts: SyntheticFeed.Counts
        do {
            let feed = try SyntheticFeed(scale: scale, seed: seed, lineEnding: crlf ? .crlf : .lf, compressionLevel: level)
            counts = try feed.write(toPath: out, format: chosen)
        } catch let error as SyntheticFeedError {
            throw ToolFailure("\(error)")
        }
        let elapsed = clock.now - started
        guard !quiet else { return }
        for file in counts.files {
            print(pad(file.fileName, 20) + pad(String(file.rows), 12, right: true) + " rows" + pad(String(file.bytes), 14, right: true) + " bytes")
        }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        print(
            pad("total", 20) + pad(String(counts.totalRows), 12, right: true) + " rows"
                + pad(String(counts.totalBytes), 14, right: true) + " bytes uncompressed")
        print("wrote \(out) (\(chosen.rawValue), \(outputSize(chosen)) bytes) in \(String(format: "%.2f", seconds)) s")
    }

    /// The bytes written to disk: the zip, or the feed's files in the directory.
    private func outputSize(_ format: SyntheticFeed.Format) -> Int64 {
        let manager = FileManager.default
        func size(_ path: String) -> Int64 {
            ((try? manager.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.int64Value ?? 0
        }
        guard format != .zip else { return size(out) }
        let names = (try? manager.contentsOfDirectory(atPath: out)) ?? []
        let suffix = format == .gzipDirectory ? ".txt.gz" : ".txt"
        return names.filter { $0.hasSuffix(suffix) }.reduce(0) { $0 + size((out as NSString).appendingPathComponent($1)) }
    }

    private func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let padding = String(repeating: " ", count: max(0, width - text.count))
        return right ? padding + text : text + padding
    }
}
