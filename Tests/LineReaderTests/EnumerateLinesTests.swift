import Dispatch
import Foundation
import LineReader
import Synchronization
import Testing

/// State shared between a test and the delivery queue.
final class Collected: Sendable {
    let lines = Mutex<[OwnedLine]>([])
    let result = Mutex<Result<Int, any Error>?>(nil)
    var count: Int { lines.withLock { $0.count } }
}

@Suite("enumerateLines on queues")
struct EnumerateLinesTests {
    @Test("Delivers every line in order and completes with the count", arguments: [1, 3, 4096])
    func allLines(chunkSize: Int) throws {
        let text = [UInt8](text: (1 ... 500).map { "row \($0)\r\n" }.joined() + "tail")
        let reader = try Reader(bytes: text, options: .init(chunkSize: chunkSize))
        let collected = Collected()
        let handle = reader.enumerateLines(on: DispatchQueue.global(), maxChunksInFlight: 2) { line in
            let owned = line.owned()
            collected.lines.withLock { $0.append(owned) }
        } completion: { result in
            collected.result.withLock { $0 = result }
        }
        handle.wait()
        let lines = collected.lines.withLock { $0 }
        #expect(lines.map(\.bytes) == ReferenceSplitter.lines(text))
        #expect(lines.map(\.number) == Array(1 ... 501))
        #expect(try collected.result.withLock { try $0?.get() } == 501)
    }

    @Test("cancel() stops delivery promptly and completes with CancellationError")
    func cancel() throws {
        let reader = try Reader(source: EndlessSource())
        let collected = Collected()
        let box = Mutex<WorkHandle?>(nil)
        let handle = reader.enumerateLines(on: DispatchQueue(label: "test")) { line in
            collected.lines.withLock { $0.append(line.owned()) }
            if line.number == 100 { box.withLock { $0?.cancel() } }
        } completion: { result in
            collected.result.withLock { $0 = result }
        }
        box.withLock { $0 = handle }
        // If delivery passed line 100 before the handle was stored, cancel from here.
        handle.cancel()
        handle.wait()
        let count = collected.count
        let result = collected.result.withLock { $0 }
        #expect(handle.isCancelled)
        guard case .failure(let error) = result else {
            Issue.record("an endless input must end only by cancellation")
            return
        }
        #expect(error is CancellationError)
        // No line is delivered after cancel returns; the count stays put.
        #expect(collected.count == count)
    }

    @Test("A slow body holds reading back: at most maxChunksInFlight chunks ahead")
    func backpressure() throws {
        let source = EndlessSource()
        let reader = try Reader(source: source, options: .init(chunkSize: 1024))
        let maxAhead = Mutex(0)
        let handle = reader.enumerateLines(on: DispatchQueue(label: "slow"), maxChunksInFlight: 3) { line in
            // Bytes of lines delivered so far: every line is 33 bytes with its newline.
            let consumed = line.number * 33
            let produced = source.bytesProduced
            maxAhead.withLock { $0 = max($0, produced - consumed) }
            if line.number % 50 == 0 { usleep(1000) }
            if line.number == 3000 { throw CancellationError() }
        } completion: { _ in }
        handle.wait()
        // Three chunks queued, one being read, plus the remainder of the current chunk.
        #expect(maxAhead.withLock { $0 } <= 5 * 1024)
    }

    @Test("An error thrown by the body ends the enumeration with that error")
    func bodyError() throws {
        struct Stop: Error {}
        let reader = try Reader(bytes: [UInt8](text: "a\nb\nc\n"), options: .init(chunkSize: 1))
        let collected = Collected()
        reader.enumerateLines(on: .global()) { line in
            collected.lines.withLock { $0.append(line.owned()) }
            if line.number == 2 { throw Stop() }
        } completion: { result in
            collected.result.withLock { $0 = result }
        }.wait()
        #expect(collected.count == 2)
        let result = collected.result.withLock { $0 }
        guard case .failure(let error) = result else {
            Issue.record("expected failure")
            return
        }
        #expect(error is Stop)
    }

    @Test("A reading error reaches the completion")
    func readError() throws {
        let reader = try Reader(source: MemorySource(gzipped([UInt8](text: "a\nb\n")).dropLast(3), name: "t.gz"))
        let collected = Collected()
        reader.enumerateLines(on: .global()) { _ in } completion: { result in
            collected.result.withLock { $0 = result }
        }.wait()
        let result = collected.result.withLock { $0 }
        guard case .failure(let error) = result else {
            Issue.record("expected failure")
            return
        }
        #expect(error is ReaderError)
    }

    @Test("After a cancel the completion runs only once the read in progress has returned")
    func completionAfterReading() throws {
        let source = GatedSource()
        let reader = try Reader(source: source, options: .init(chunkSize: 64))
        let readingAtCompletion = Mutex<Bool?>(nil)
        let handle = reader.enumerateLines(on: DispatchQueue(label: "test"), maxChunksInFlight: 1) { _ in
        } completion: { _ in
            readingAtCompletion.withLock { $0 = source.isReading }
        }
        // The second read blocks until the gate opens: cancel while the reading thread is inside it.
        #expect(source.entered.wait(timeout: .now() + 5) == .success)
        handle.cancel()
        // A completion that does not wait for the read would run now, while the read is still going on.
        usleep(100_000)
        source.gate.signal()
        handle.wait()
        #expect(readingAtCompletion.withLock { $0 } == false)
    }
}

/// One chunk of lines, then a read that blocks until `gate` is signalled: stands for a pipe that waits.
final class GatedSource: ByteSource, Sendable {
    let name = "<gated>"
    var byteCount: Int64? { nil }
    let entered = DispatchSemaphore(value: 0)
    let gate = DispatchSemaphore(value: 0)
    private let reads = Atomic<Int>(0)
    private let reading = Atomic<Bool>(false)
    /// Whether a read is in progress.
    var isReading: Bool { reading.load(ordering: .sequentiallyConsistent) }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        reading.store(true, ordering: .sequentiallyConsistent)
        defer { reading.store(false, ordering: .sequentiallyConsistent) }
        if reads.add(1, ordering: .relaxed).newValue > 1 {
            entered.signal()
            gate.wait()
        }
        let line = Array("line\n".utf8)
        let count = min(buffer.count, line.count)
        for index in 0 ..< count { buffer[index] = line[index] }
        return count
    }
}

