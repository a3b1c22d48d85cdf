import Dispatch
import Foundation
import GTFS
@testable import GTFSImport
import Synchronization
import TestSupport
import Testing

/// What an import tells its caller while it runs and when it ends: the progress reports and the summary's
/// report text.
@Suite("Import progress and report")
struct ImportProgressTests {
    @Test("No estimate before 3 seconds and 5% of the input; then the rest at the rate so far")
    func estimate() {
        var progress = ImportProgress()
        progress.phase = .loading
        progress.totalBytes = 1000
        progress.bytesRead = 10
        progress.loadingElapsed = .seconds(10)
        #expect(progress.estimatedTimeRemaining == nil, "1% of the input says little")
        progress.bytesRead = 100
        progress.loadingElapsed = .seconds(2)
        progress.elapsed = .seconds(12)
        #expect(progress.estimatedTimeRemaining == nil, "2 seconds of rows say little, after 10 s of removing old rows")
        progress.loadingElapsed = .seconds(4)
        #expect(progress.estimatedTimeRemaining == .seconds(36))
        progress.rowsByTable = [.stops: 300, .trips: 100]
        #expect(progress.rowsPerSecond == 100, "the rate counts the time rows went in")
        progress.totalBytes = nil
        #expect(progress.estimatedTimeRemaining == nil, "the size of standard input is unknown")
        progress.totalBytes = 1000
        progress.phase = .buildingIndexes
        #expect(progress.estimatedTimeRemaining == nil)
    }

    @Test("The last report lists every file with rows, in load order, with the rows stored; a full re-import removes rows first")
    func finishedFiles() throws {
        let folder = try TemporaryFolder()
        let store = try GTFSStore(path: folder.file("feed.sqlite"))
        let source = try FeedSource(path: try FeedFiles.directory(FeedFiles.feed(), in: folder))
        let last = Mutex<ImportProgress?>(nil)
        let done = DispatchSemaphore(value: 0)
        let operation = ImportOperation(source: source, store: store, progressQueue: DispatchQueue(label: "test.progress")) { progress in
            last.withLock { $0 = progress }
            if progress.phase == .finished { done.signal() }
        }
        operation.start()
        let summary = try #require(try operation.result?.get())
        #expect(done.wait(timeout: .now() + 10) == .success)
        let final = try #require(last.withLock { $0 })
        let withRows = summary.tables.filter { $0.rowsStored > 0 }
        #expect(final.finishedFiles.map(\.fileName) == withRows.map(\.fileName))
        #expect(final.finishedFiles.map(\.rows) == withRows.map(\.rowsStored))
        #expect(final.finishedFiles.allSatisfy { $0.duration >= .zero && $0.duration <= summary.duration })

        var options = ImportOptions()
        options.update = .full
        let loading = Mutex<[ImportProgress]>([])
        let finished = DispatchSemaphore(value: 0)
        let again = ImportOperation(source: source, store: store, options: options, progressQueue: DispatchQueue(label: "test.progress")) { progress in
            if progress.phase == .loading { loading.withLock { $0.append(progress) } }
            if progress.phase == .finished { finished.signal() }
        }
        let phases = Mutex<[ImportProgress.Phase]>([])
        again.observePhases { phase, _ in
            phases.withLock { if $0.last != phase { $0.append(phase) } }
            // Removing the rows takes a while: the rates must not count it.
            if phase == .removingRows { Thread.sleep(forTimeInterval: 0.3) }
            // At most one report waits for the queue, and a newer one replaces it: a pause as each file begins
            // lets the loading report of the file before reach the handler before the next phase's replaces it.
            if phase == .loading { Thread.sleep(forTimeInterval: 0.06) }
        }
        again.start()
        _ = try #require(try again.result?.get())
        #expect(finished.wait(timeout: .now() + 10) == .success)
        #expect(phases.withLock { $0 }.prefix(2) == [.removingRows, .loading])
        let reports = loading.withLock { $0 }
        #expect(!reports.isEmpty)
        #expect(reports.allSatisfy { $0.loadingElapsed > .zero && $0.elapsed - $0.loadingElapsed >= .milliseconds(300) })
    }

    @Test("The summary's report: what went where, a row per file, the phases; an import that changed nothing says so first")
    func report() throws {
        let folder = try TemporaryFolder()
        let store = try GTFSStore(path: folder.file("feed.sqlite"))
        let source = try FeedSource(path: try FeedFiles.directory(FeedFiles.feed(stops: 20), in: folder))
        let summary = try store.importFeedSynchronously(from: source)
        let text = summary.report(source: "feed", database: "feed.sqlite")
        #expect(text.hasPrefix("Imported feed into feed.sqlite (feed default, full) in "))
        #expect(text.contains("\nstops.txt              20      20         0         0        20        0        0          0\n"), "\(text)")
        #expect(text.contains("\nintegrity: all "))
        let same = try store.importFeedSynchronously(from: source).report(source: "feed", database: "feed.sqlite")
        #expect(same.hasPrefix("Nothing changed: feed default in feed.sqlite already holds exactly the rows of feed (checked in "))
        #expect(same.contains("\nstops.txt (same file)              20         0         0\n"), "\(same)")
    }
}
