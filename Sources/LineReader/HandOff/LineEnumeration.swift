public import Dispatch

extension Reader {
    /// Reads on a private thread and delivers lines on a serial queue targeting `queue`, with a bounded
    /// number of chunks in flight between the two.
    ///
    /// The reader belongs to the enumeration until `completion` runs: do not use it meanwhile. A cancel
    /// takes effect once the read in progress returns (at once for a file; a pipe may keep it waiting for
    /// its next bytes), so that `completion` may close the reader's descriptor. Reading waits while `maxChunksInFlight` chunks are waiting for delivery, so memory stays
    /// bounded however slow `body` is.
    ///
    /// ```swift
    /// let handle = try Reader(path: "stops.txt").enumerateLines(on: .main) { line in
    ///     print(line.number, line.string)
    /// } completion: { result in
    ///     print(result) // .success(12794) or .failure(error)
    /// }
    /// handle.cancel() // whenever the user taps "Stop"
    /// ```
    /// - Parameters:
    ///   - queue: where `body` and `completion` run (serially, even on a concurrent queue).
    ///   - maxChunksInFlight: chunks read ahead of delivery, at least 1; default 4.
    ///   - body: receives each line; its bytes are valid only during the call. Throwing ends the enumeration.
    ///   - completion: called once with the total number of lines, or the error (`CancellationError` after
    ///     ``WorkHandle/cancel()``).
    /// - Returns: a handle to cancel or wait for the enumeration.
    @discardableResult
    public func enumerateLines(
        on queue: DispatchQueue,
        maxChunksInFlight: Int = 4,
        _ body: @escaping @Sendable (_ line: Line) throws -> Void,
        completion: @escaping @Sendable (_ result: Result<Int, any Error>) -> Void
    ) -> WorkHandle {
        let run = EnumerationRun(
            reader: self, target: queue, slots: max(1, maxChunksInFlight), body: body, completion: completion)
        run.start()
        return run.handle
    }
}

/// The stages of an enumeration: a reading thread fills chunks, a delivery thread hands their lines to
/// the caller's queue; full chunks go one way and empty ones back through ``BoundedChannel``s, so at most
/// `slots` chunks exist.
///
/// Thread confinement, not locks, keeps it safe: the reader's source and decoder are used only on the
/// reading thread; the splitter, `finished` and the line count only inside the delivery queue.
private final class EnumerationRun: @unchecked Sendable {
    let handle: WorkHandle
    private let reader: Reader
    private let deliveryQueue: DispatchQueue
    /// Chunks read, by slot, with their byte count.
    private let filled: BoundedChannel<(slot: Int, count: Int), Void>
    /// Slots free to read into.
    private let free: BoundedChannel<Int, Void>
    private let chunks: [UnsafeMutableRawBufferPointer]
    private let body: @Sendable (Line) throws -> Void
    private let completion: @Sendable (Result<Int, any Error>) -> Void
    private var finished = false
    /// Why `body` ended the enumeration, reported once the reading thread has stopped.
    private var failure: (any Error)?
    /// Signalled when the reading thread no longer touches the reader.
    private let readingStopped = DispatchSemaphore(value: 0)

    init(
        reader: Reader, target: DispatchQueue, slots: Int,
        body: @escaping @Sendable (Line) throws -> Void,
        completion: @escaping @Sendable (Result<Int, any Error>) -> Void
    ) {
        self.reader = reader
        self.deliveryQueue = DispatchQueue(label: "LineReader.enumerateLines.deliver", target: target)
        let filled = BoundedChannel<(slot: Int, count: Int), Void>(capacity: slots)
        let free = BoundedChannel<Int, Void>(capacity: slots)
        self.filled = filled
        self.free = free
        self.handle = WorkHandle(stop: { filled.close(); free.close() }, pending: { filled.count })
        chunks = (0 ..< slots).map { _ in
            UnsafeMutableRawBufferPointer.allocate(byteCount: reader.options.chunkSize, alignment: 16)
        }
        for slot in chunks.indices { try? free.send(slot) }  // capacity `slots`: never waits
        self.body = body
        self.completion = completion
    }

    deinit {
        for chunk in chunks { chunk.deallocate() }
    }

    func start() {
        DispatchQueue(label: "LineReader.enumerateLines.read").async { self.readLoop() }
        DispatchQueue(label: "LineReader.enumerateLines.pump").async { self.deliverLoop() }
    }

    private func readLoop() {
        defer { readingStopped.signal() }
        while case .item(let slot) = free.next() {
            do {
                let count = try reader.readChunk(into: chunks[slot])
                if count == 0 {
                    filled.finish(.success(()))
                    return
                }
                try filled.send((slot, count))
            } catch {
                filled.finish(.failure(error))
                return
            }
        }
    }

    private func deliverLoop() {
        while true {
            switch filled.next() {
            case .item(let chunk):
                deliveryQueue.sync { deliver(chunk) }
                try? free.send(chunk.slot)
            case .end(.success):
                readingStopped.wait()
                deliveryQueue.sync {
                    guard !finished else { return }
                    reader.splitter.endInput()
                    drain()
                    if let failure {
                        finish(.failure(failure))
                    } else if handle.isCancelled {
                        finish(.failure(CancellationError()))
                    } else {
                        finish(.success(reader.splitter.lineCount))
                    }
                }
                return
            case .end(.failure(let error)):
                readingStopped.wait()
                deliveryQueue.sync { finish(.failure(failure ?? error)) }
                return
            case .closed:
                // The completion may close the reader's descriptor: the reading thread must be done with it.
                readingStopped.wait()
                deliveryQueue.sync { finish(.failure(failure ?? CancellationError())) }
                return
            }
        }
    }

    private func deliver(_ chunk: (slot: Int, count: Int)) {
        guard !finished, !handle.isCancelled else { return }
        reader.splitter.append(UnsafeRawBufferPointer(rebasing: chunks[chunk.slot][0 ..< chunk.count]))
        drain()
    }

    /// Hands every complete line to `body`, checking for cancellation before each. An error stops the
    /// enumeration; the delivery loop reports it once reading has stopped.
    private func drain() {
        do {
            while !handle.isCancelled, let line = try reader.splitter.nextLine() {
                try body(line)
            }
        } catch {
            if failure == nil { failure = error }
            handle.cancel()
        }
    }

    private func finish(_ result: Result<Int, any Error>) {
        guard !finished else { return }
        finished = true
        completion(result)
        handle.markDone()
    }
}
