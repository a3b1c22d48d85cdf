import Foundation
import GTFS
import GTFSImport
import Synchronization
import TestSupport
import Testing

/// Readers that open the database, read a snapshot and close it, in a loop, while imports of every kind
/// land: none of them fails, and each sees the old or the new version whole.
@Suite("Readers in a loop never fail while imports land")
struct ReadersDuringImportsTests {
    /// How the imports of a round meet the stored feed.
    enum Kind: String, CaseIterable, Sendable {
        /// `--full` of the database's only feed: a new file built aside and renamed over the old one.
        case switched
        /// `--full` of one of two feeds: replaced in place.
        case fullInPlace
        /// The feed changes back and forth, incrementally.
        case incremental
        /// A new feed each round.
        case newFeed
    }

    /// What the readers saw.
    struct Seen {
        var reads = 0
        var failures: [String] = []
        var stopCounts: Set<Int> = []
    }

    @Test("20 imports of each kind with 2 readers opening the database in a loop", arguments: Kind.allCases)
    func readersNeverFail(kind: Kind) throws {
        let folder = try TemporaryFolder()
        let path = folder.file("feed.sqlite")
        let feeds = [
            try FeedFiles.directory(FeedFiles.feed(stops: 20), in: folder, name: "a"),
            try FeedFiles.directory(FeedFiles.feed(stops: 30, namePrefix: "Halt"), in: folder, name: "b"),
        ]
        var options = ImportOptions()
        if kind == .fullInPlace {
            options.feed = "other"
            try Self.importFeed(feeds[0], into: path, options)
        }
        options.feed = "default"
        try Self.importFeed(feeds[0], into: path, options)

        let seen = Mutex(Seen())
        let stop = Atomic(false)
        let readers = (0 ..< 2).map { _ in
            let reader = Thread { Self.read(path, until: stop, into: seen) }
            reader.start()
            return reader
        }
        var switches = 0
        for round in 1 ... 20 {
            let inode = try ReplacedDatabaseTests.inode(path)
            options.update = kind == .switched || kind == .fullInPlace ? .full : .automatic
            if kind == .newFeed { options.feed = "feed \(round)" }
            try Self.importFeed(feeds[round % 2], into: path, options)
            if try ReplacedDatabaseTests.inode(path) != inode { switches += 1 }
            Thread.sleep(forTimeInterval: 0.005)
        }
        stop.store(true, ordering: .relaxed)
        while readers.contains(where: { $0.isExecuting }) { Thread.sleep(forTimeInterval: 0.001) }

        let result = seen.withLock { $0 }
        #expect(result.failures.isEmpty, "\(result.failures.count) of \(result.reads) reads failed: \(Set(result.failures))")
        #expect(result.reads > 20)
        // Each read saw one version whole: the stops of feed a (20) or b (30), plus those of the other feeds.
        let expected: Set<Int> =
            switch kind {
            case .switched, .incremental: [20, 30]
            case .fullInPlace: [40, 50]
            case .newFeed: Set(20 ... 20 + 20 * 30)
            }
        #expect(result.stopCounts.isSubset(of: expected), "\(result.stopCounts.sorted())")
        if kind == .switched { #expect(switches > 0, "no import was switched in: the test did not test that path") }
    }

    /// Imports `directory` into `path`, or records why it failed.
    static func importFeed(_ directory: String, into path: String, _ options: ImportOptions) throws {
        let operation = ImportOperation(source: try FeedSource(path: directory), databasePath: path, options: options)
        operation.start()
        _ = try #require(operation.result).get()
    }

    /// Opens the store read-only, counts its rows from one snapshot and closes it, until `stop`.
    static func read(_ path: String, until stop: borrowing Atomic<Bool>, into seen: borrowing Mutex<Seen>) {
        while !stop.load(ordering: .relaxed) {
            do {
                let store = try GTFSStore(readingFrom: path)
                let counts = try store.rowCounts()
                try store.close()
                seen.withLock {
                    $0.reads += 1
                    $0.stopCounts.insert(counts[.stops] ?? -1)
                }
            } catch {
                seen.withLock {
                    $0.reads += 1
                    $0.failures.append("\(error)")
                }
            }
            Thread.sleep(forTimeInterval: Double.random(in: 0 ... 0.02))
        }
    }
}
