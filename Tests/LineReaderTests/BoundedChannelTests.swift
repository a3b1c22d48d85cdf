import Dispatch
import Platform
@testable import LineReader
import Synchronization
import Testing

/// The one hand-off: bounded, releasing what was taken, waking both sides on close, for blocking and
/// suspending consumers alike.
@Suite("BoundedChannel", .serialized)
struct BoundedChannelTests {
    /// Counts its live instances, to see what the channel still holds.
    final class Tracked: Sendable {
        static let live = Atomic<Int>(0)
        let value: Int
        init(_ value: Int) {
            self.value = value
            Self.live.add(1, ordering: .relaxed)
        }
        deinit { Self.live.subtract(1, ordering: .relaxed) }
    }

    /// Sees whether an item is still alive without keeping it.
    struct Weak {
        weak var item: Tracked?
        init(_ item: Tracked) { self.item = item }
    }

    @Test("A slow consumer holds the producer back, and taken items are released: memory stays at the capacity")
    func boundedAndReleasing() {
        let channel = BoundedChannel<Tracked, Int>(capacity: 3)
        let produced = Atomic<Int>(0)
        DispatchQueue.global().async {
            for index in 0 ..< 2000 {
                guard (try? channel.send(Tracked(index))) != nil else { return }
                produced.add(1, ordering: .relaxed)
            }
            channel.finish(.success(2000))
        }
        var taken: [Int] = []
        var mostAlive = 0
        var mostAhead = 0
        while true {
            // Take only from a full channel, so the producer always stays ahead of the consumer.
            while channel.count < 3 && produced.load(ordering: .relaxed) < 2000 { usleep(50) }
            guard case .item(let item) = channel.next() else { break }
            taken.append(item.value)
            // The taken item, the ones waiting, and one being sent.
            mostAlive = max(mostAlive, Tracked.live.load(ordering: .relaxed))
            mostAhead = max(mostAhead, produced.load(ordering: .relaxed) - taken.count)
        }
        #expect(taken == Array(0 ..< 2000))
        #expect(mostAlive <= 3 + 2, "the channel keeps items it handed out")
        #expect(mostAhead <= 3)
        #expect(channel.count == 0)
    }

    @Test("The end carries the producer's result after the last item; close wakes a waiting producer and consumer")
    func endAndClose() async throws {
        let channel = BoundedChannel<Int, String>(capacity: 1)
        try channel.send(1)
        channel.finish(.success("done"))
        guard case .item(1) = channel.next(), case .end(.success("done")) = channel.next() else {
            Issue.record("expected the item, then the end")
            return
        }

        let blocked = BoundedChannel<Int, String>(capacity: 1)
        try blocked.send(1)
        let sendFailed = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            // Full: this send waits until the close, then throws.
            if (try? blocked.send(2)) == nil { sendFailed.signal() }
        }
        let waiting = BoundedChannel<Int, String>(capacity: 1)
        async let taken = waiting.nextAsync()
        try await Task.sleep(nanoseconds: 20_000_000)
        blocked.close()
        waiting.close()
        #expect(sendFailed.wait(timeout: .now() + 5) == .success)
        guard case .closed = await taken, case .closed = blocked.next() else {
            Issue.record("a closed channel gives .closed")
            return
        }
    }

    @Test("Closing releases the items still waiting, at once: a closed channel kept alive holds nothing")
    func closeReleases() throws {
        let channel = BoundedChannel<Tracked, Int>(capacity: 8)
        var watched: [Weak] = []
        for index in 0 ..< 8 {
            let item = Tracked(index)
            watched.append(Weak(item))
            try channel.send(item)
        }
        #expect(watched.allSatisfy { $0.item != nil })
        channel.close()
        #expect(watched.allSatisfy { $0.item == nil })
        #expect(channel.count == 0)
        guard case .closed = channel.next() else {
            Issue.record("a closed channel gives .closed")
            return
        }
    }

    @Test("Several suspended consumers: each item goes to one of them, and the end reaches every one")
    func severalAsyncConsumers() async {
        let channel = BoundedChannel<Int, String>(capacity: 2)
        let consumers = 4
        let items = 1000
        // A thread of its own: `send` blocks, and a blocked task would hold one of the few threads that
        // run the consumers (and every other test).
        let produced = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            // Consumers first, so that items go straight to waiting ones as well as through the buffer.
            usleep(10_000)
            for index in 0 ..< items { try? channel.send(index) }
            channel.finish(.success("done"))
            produced.signal()
        }
        let taken = await withTaskGroup(of: ([Int], Bool).self) { group in
            for _ in 0 ..< consumers {
                group.addTask {
                    var mine: [Int] = []
                    while true {
                        switch await channel.nextAsync() {
                        case .item(let value): mine.append(value)
                        case .end(.success("done")): return (mine, true)
                        default: return (mine, false)
                        }
                    }
                }
            }
            var all: [([Int], Bool)] = []
            for await result in group { all.append(result) }
            return all
        }
        #expect(produced.wait(timeout: .now() + 5) == .success)
        #expect(taken.allSatisfy { $0.1 }, "every consumer receives the end")
        #expect(taken.flatMap(\.0).sorted() == Array(0 ..< items), "each item is taken exactly once")
    }
}
