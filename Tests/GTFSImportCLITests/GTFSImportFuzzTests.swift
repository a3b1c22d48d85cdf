import Foundation
import GRDB
import GTFS
@testable import GTFSImport
@testable import GTFSSynth
import TestSupport
import Testing

/// Seeded mutations of a small zip feed and a gzip file, imported in process and through the binary: no
/// crash, a documented status, one line on failure, the data unchanged on failure, an intact database.
///
/// The seed is `GTFS_FUZZ_SEED` when set (CI sets a fixed one), a random one otherwise; it is printed, so a
/// failing run can be repeated.
@Suite("Fuzzing the import with seeded mutations")
struct GTFSImportFuzzTests {
    /// The inputs and a database that holds their unmutated version.
    struct Corpus {
        let folder: TemporaryFolder
        let zip: [UInt8]
        let stops: [UInt8]
        let gzip: [UInt8]
        let baseDB: String
        let before: [String]

        init() throws {
            folder = try TemporaryFolder()
            let zipPath = folder.file("base.zip")
            try Self.writeZip(Self.feed.map { ($0.0, Array($0.1.utf8)) }, to: zipPath)
            zip = Array(try Data(contentsOf: URL(fileURLWithPath: zipPath)))
            let text = try String(contentsOf: Repository.berlin.appendingPathComponent("vbb-2013/stops.txt"), encoding: .utf8)
            stops = Array(text.split(separator: "\n", omittingEmptySubsequences: false).prefix(120).joined(separator: "\n").utf8)
            gzip = Deflate.gzip(stops)
            baseDB = folder.file("base.sqlite")
            let store = try GTFSStore(path: baseDB)
            _ = try store.importFeedSynchronously(from: try FeedSource(path: zipPath))
            var options = ImportOptions()
            options.feed = "stops"
            _ = try store.importFeedSynchronously(from: try FeedSource(path: try folder.write(gzip, name: "stops.txt.gz")), options: options)
            try store.close()
            before = try GTFSImportToolTests.snapshot(baseDB)
        }

        /// Writes a zip of `files`.
        static func writeZip(_ files: [(String, [UInt8])], to path: String) throws {
            let writer = try ZipWriter(path: path, level: 6)
            for (name, bytes) in files {
                let entry = try writer.beginEntry(name: name)
                try bytes.withUnsafeBytes { try entry.write($0) }
                try writer.endEntry()
            }
            try writer.finish()
        }

        /// A mutated input: the compressed bytes mutated, or (twice as often) the text mutated and then
        /// compressed, so that both the containers and the CSV inside them meet damage.
        func mutatedInput(_ isZip: Bool, _ rng: inout SeededGenerator, name: String) throws -> String {
            let path = folder.file(name + (isZip ? "/feed.zip" : "/stops.txt.gz"))
            try FileManager.default.createDirectory(atPath: folder.file(name), withIntermediateDirectories: true)
            let mutatesText = Int.random(in: 0 ..< 3, using: &rng) > 0
            switch (isZip, mutatesText) {
            case (true, true):
                let victim = Int.random(in: 0 ..< Self.feed.count, using: &rng)
                var files = Self.feed.map { ($0.0, Array($0.1.utf8)) }
                files[victim].1 = GTFSImportFuzzTests.mutate(files[victim].1, &rng)
                try Self.writeZip(files, to: path)
            case (true, false): try folder.write(GTFSImportFuzzTests.mutate(zip, &rng), name: name + "/feed.zip")
            case (false, true): try folder.write(Deflate.gzip(GTFSImportFuzzTests.mutate(stops, &rng)), name: name + "/stops.txt.gz")
            case (false, false): try folder.write(GTFSImportFuzzTests.mutate(gzip, &rng), name: name + "/stops.txt.gz")
            }
            return path
        }

        /// A small consistent feed with a quoted name, times past 24:00 and every main table.
        static let feed: [(String, String)] = [
            ("agency.txt", "agency_id,agency_name,agency_url,agency_timezone\nA,VBB,https://vbb.de,Europe/Berlin\n"),
            ("stops.txt", "stop_id,stop_name,stop_lat,stop_lon,parent_station\n"
                + (0 ..< 30).map { "S\($0),\"Stop \($0), Berlin\",52.\(500_000 + $0),13.\(400_000 + $0),\n" }.joined()),
            ("routes.txt", "route_id,agency_id,route_short_name,route_type\nR1,A,M4,900\nR2,A,S1,109\n"),
            ("calendar.txt", "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nWD,1,1,1,1,1,0,0,20250101,20251231\n"),
            ("trips.txt", "route_id,service_id,trip_id\n" + (0 ..< 12).map { "R\($0 % 2 + 1),WD,T\($0)\n" }.joined()),
            ("stop_times.txt", "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
                + (0 ..< 12).flatMap { trip in (0 ..< 6).map { "T\(trip),2\(trip % 6):0\($0):00,2\(trip % 6):0\($0):30,S\((trip + $0) % 30),\($0 + 1)\n" } }.joined()),
        ]
    }

    /// One mutation of `bytes`, chosen and placed by `rng`.
    static func mutate(_ bytes: [UInt8], _ rng: inout SeededGenerator) -> [UInt8] {
        var bytes = bytes
        for _ in 0 ... Int.random(in: 0 ..< 3, using: &rng) {
            guard !bytes.isEmpty else { return bytes }
            let at = Int.random(in: 0 ..< bytes.count, using: &rng)
            switch Int.random(in: 0 ..< 8, using: &rng) {
            case 0: bytes[at] ^= UInt8(1 << Int.random(in: 0 ..< 8, using: &rng))
            case 1: bytes[at] = UInt8.random(in: 0 ... 255, using: &rng)
            case 2: bytes.insert(UInt8.random(in: 0 ... 255, using: &rng), at: at)
            case 3: bytes.remove(at: at)
            case 4: bytes = Array(bytes.prefix(at))
            case 5:
                // An extreme 16-, 32- or 64-bit little-endian value, as headers hold sizes and offsets.
                let width = [2, 4, 8].randomElement(using: &rng) ?? 4
                let value: UInt64 = [.max, 1 << 63, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF, 0].randomElement(using: &rng) ?? 0
                for index in 0 ..< width where at + index < bytes.count { bytes[at + index] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(index))) }
            case 6:
                let length = min(bytes.count - at, Int.random(in: 1 ... 64, using: &rng))
                bytes.insert(contentsOf: bytes[at ..< at + length], at: at)
            default:
                bytes.insert(contentsOf: [0x22, 0x0D, 0x2C, 0x0A, 0x1B, 0x00].shuffled(using: &rng).prefix(2), at: at)
            }
        }
        return bytes
    }

    static let seed: UInt64 = {
        if let text = ProcessInfo.processInfo.environment["GTFS_FUZZ_SEED"], let seed = UInt64(text) { return seed }
        return UInt64.random(in: 0 ... .max)
    }()

    @Test("Hundreds of mutated zips and gzips in process: an ImportError or a summary, the data unchanged on failure")
    func inProcess() throws {
        print("fuzz seed \(Self.seed) (GTFS_FUZZ_SEED=\(Self.seed) repeats this run)")
        let corpus = try Corpus()
        var rng = SeededGenerator(seed: Self.seed)
        let start = ContinuousClock.now
        var runs = 0
        var outcomes: [String: Int] = [:]
        while runs < 300 && ContinuousClock.now - start < .seconds(40) {
            runs += 1
            let isZip = Bool.random(using: &rng)
            let input = try corpus.mutatedInput(isZip, &rng, name: "case")
            let db = corpus.folder.file("case/gtfs.sqlite")
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: db + suffix) }
            try FileManager.default.copyItem(atPath: corpus.baseDB, toPath: db)
            var options = ImportOptions()
            options.feed = isZip ? "default" : "stops"
            options.parsing.strict = Int.random(in: 0 ..< 4, using: &rng) == 0
            options.update = Bool.random(using: &rng) ? .full : .automatic
            let context = "seed \(Self.seed), run \(runs)"
            do {
                let summary = try GTFSStore(path: db).importFeedSynchronously(from: try FeedSource(path: input), options: options)
                outcomes[summary.rowsRejected > 0 ? "rejected rows" : "imported", default: 0] += 1
            } catch let error as ImportError {
                outcomes[error.description.contains("CRC-32") || error.description.contains("corrupt") ? "failed: damaged data" : "failed", default: 0] += 1
                #expect(!error.description.contains("\n"), "\(context): \(error)")
                #expect(try GTFSImportToolTests.snapshot(db) == corpus.before, "\(context): \(error)")
            } catch let error as GTFSError {
                // The source itself (a zip whose directory cannot be read) is refused before the import.
                outcomes["refused source", default: 0] += 1
                #expect(!error.description.contains("\n"), "\(context): \(error)")
            }
            let check = try DatabaseQueue(path: db).read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
            #expect(check == ["ok"], "\(context)")
        }
        print("fuzz seed \(Self.seed): \(runs) runs, \(outcomes.sorted { $0.key < $1.key })")
        #expect(runs >= 100)
    }

    @Test("Mutated inputs through the binary: no signal, status 0, 1 or 3, one line on 1, the data unchanged on 1")
    func throughTheTool() throws {
        let corpus = try Corpus()
        var rng = SeededGenerator(seed: Self.seed &+ 1)
        for run in 1 ... 25 {
            let isZip = Bool.random(using: &rng)
            let input = try corpus.mutatedInput(isZip, &rng, name: "tool")
            let db = corpus.folder.file("tool/gtfs.sqlite")
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: db + suffix) }
            try FileManager.default.copyItem(atPath: corpus.baseDB, toPath: db)
            let result = try ToolRunner.run("gtfs-import", ["--db", db, "--quiet", "--feed", isZip ? "default" : "stops", input])
            let context = "seed \(Self.seed &+ 1), run \(run): \(result.stderr)"
            #expect(!result.wasSignalled, "\(context)")
            #expect([0, 1, 3].contains(result.status), "\(context)")
            if result.status == 1 {
                #expect(result.stderr.hasPrefix("gtfs-import: ") && result.stderr.filter { $0 == "\n" }.count == 1, "\(context)")
                #expect(try GTFSImportToolTests.snapshot(db) == corpus.before, "\(context)")
            }
            let check = try DatabaseQueue(path: db).read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
            #expect(check == ["ok"], "\(context)")
        }
    }
}
