public import Dispatch
import Synchronization

/// A running ``Reader/enumerateLines(on:maxChunksInFlight:_:completion:)``: cancel it or wait for it.
public final class LineEnumeration: Sendable {
    private let cancelled = Atomic<Bool>(false)
    private let done = DispatchSemaphore(value: 0)
    private let wakeReader: DispatchSemaphore

    init(wakeReader: DispatchSemaphore) {
        self.wakeReader = wakeReader
    }

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    /// Stops the enumeration promptly: no line is delivered after the one in progress, reading
    /// stops at the next chunk, and the completion receives `CancellationError`.
    public func cancel() {
        if !cancelled.exchange(true, ordering: .acquiringAndReleasing) {
            wakeReader.signal()
        }
    }

    /// Blocks until the completion handler has returned. Never call it on the delivery queue.
    public func wait() {
        done.wait()
        done.signal()
    }

    func markDone() { done.signal() }
}

extension Reader {
    /// Reads on a private queue and delivers lines on a serial queue targeting `queue`,
    /// with a bounded number of chunks in flight between the two.
    ///
    /// The reader belongs to the enumeration until `completion` runs: do not use it meanwhile.
    /// Reading waits while `maxChunksInFlight` chunks are queued for delivery, so memory stays
    /// bounded however slow `body` is.
    ///
    /// ```swift
    /// let handle = try Reader(path: "stops.txt").enumerateLines(on: .main) { line in
    ///     names.append(line.string)
    /// } completion: { result in
    ///     print(result) // .success(12794) or .failure(error)
    /// }
    /// handle.cancel() // whenever the user taps "Stop"
    /// ```
    /// - Parameters:
    ///   - queue: where `body` and `completion` run (serially, even on a concurrent queue).
    ///   - maxChunksInFlight: chunks read ahead of delivery, at least 1; default 4.
    ///   - body: receives each line; its bytes are valid only during the call. Throwing ends the enumeration.
    ///   - completion: called once with the total number of lines, or the error (`CancellationError` after ``LineEnumeration/cancel()``).
    /// - Returns: a handle to cancel or wait for the enumeration.
    @discardableResult
    public func enumerateLines(
        on queue: DispatchQueue,
        maxChunksInFlight: Int = 4,
        _ body: @escaping @Sendable (_ line: Line) throws -> Void,
        completion: @escaping @Sendable (_ result: Result<Int, any Error>) -> Void
    ) -> LineEnumeration {
        let run = EnumerationRun(
            reader: self, target: queue, slots: max(1, maxChunksInFlight), body: body, completion: completion)
        run.start()
        return run.handle
    }
}

/// The two stages of an enumeration: a reading loop and a serial delivery queue.
///
/// Thread confinement, not locks, keeps it safe: the reader's source and decoder are used only on
/// `readQueue`; the splitter, `finished` and `lineCount` only on `deliveryQueue`. The chunk pool's
/// free list is the one shared piece and has a mutex.
private final class EnumerationRun: @unchecked Sendable {
    let handle: LineEnumeration
    private let reader: Reader
    private let readQueue = DispatchQueue(label: "LineReader.enumerateLines.read")
    private let deliveryQueue: DispatchQueue
    private let freeSlots: DispatchSemaphore
    private let pool: Mutex<[Int]>
    private let allChunks: [UnsafeMutableRawBufferPointer]
    private let body: @Sendable (Line) throws -> Void
    private let completion: @Sendable (Result<Int, any Error>) -> Void
    private var finished = false

    init(
        reader: Reader, target: DispatchQueue, slots: Int,
        body: @escaping @Sendable (Line) throws -> Void,
        completion: @escaping @Sendable (Result<Int, any Error>) -> Void
    ) {
        self.reader = reader
        self.deliveryQueue = DispatchQueue(label: "LineReader.enumerateLines.deliver", target: target)
        self.freeSlots = DispatchSemaphore(value: slots)
        self.handle = LineEnumeration(wakeReader: freeSlots)
        let chunks = (0 ..< slots).map { _ in
            UnsafeMutableRawBufferPointer.allocate(byteCount: reader.options.chunkSize, alignment: 16)
        }
        self.allChunks = chunks
        self.pool = Mutex(Array(chunks.indices))
        self.body = body
        self.completion = completion
    }

    deinit {
        for chunk in allChunks { chunk.deallocate() }
    }

    func start() {
        readQueue.async { self.readLoop() }
    }

    private func readLoop() {
        while true {
            freeSlots.wait()
            if handle.isCancelled {
                freeSlots.signal()
                deliveryQueue.async { self.finish(.failure(CancellationError())) }
                return
            }
            guard let slot = pool.withLock({ $0.popLast() }) else { continue }
            let chunk = allChunks[slot]
            let count: Int
            do {
                count = try reader.readChunk(into: chunk)
            } catch {
                recycle(slot)
                deliveryQueue.async { self.finish(.failure(error)) }
                return
            }
            if count == 0 {
                recycle(slot)
                deliveryQueue.async { self.deliverEnd() }
                return
            }
            deliveryQueue.async { self.deliver(slot: slot, count: count) }
        }
    }

    /// Returns a chunk to the pool and wakes the reading loop.
    private func recycle(_ slot: Int) {
        pool.withLock { $0.append(slot) }
        freeSlots.signal()
    }

    private func deliver(slot: Int, count: Int) {
        defer { recycle(slot) }
        guard !finished, !handle.isCancelled else { return }
        reader.splitter.append(UnsafeRawBufferPointer(rebasing: allChunks[slot][0 ..< count]))
        drain()
    }

    private func deliverEnd() {
        guard !finished else { return }
        reader.splitter.endInput()
        drain()
        finish(.success(reader.splitter.lineCount))
    }

    /// Hands every complete line to `body`, checking for cancellation before each.
    private func drain() {
        do {
            while !handle.isCancelled, let line = try reader.splitter.nextLine() {
                try body(line)
            }
        } catch {
            finish(.failure(error))
            handle.cancel()
        }
        if handle.isCancelled { finish(.failure(CancellationError())) }
    }

    private func finish(_ result: Result<Int, any Error>) {
        guard !finished else { return }
        finished = true
        completion(result)
        handle.markDone()
    }
}

