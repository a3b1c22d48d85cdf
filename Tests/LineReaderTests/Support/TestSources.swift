import LineReader
import Synchronization
import Testing

/// Hands out at most `step` bytes per read, to drip-feed a reader regardless of its chunk size.
final class DripSource: ByteSource {
    let name = "<drip>"
    var byteCount: Int64? { Int64(bytes.count) }
    private let bytes: [UInt8]
    private var offset = 0
    private var steps: [Int]
    private var stepIndex = 0

    /// - Parameter steps: read sizes used in turn (cycled); each at least 1.
    init(_ bytes: [UInt8], steps: [Int]) {
        self.bytes = bytes
        self.steps = steps
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let step = steps[stepIndex % steps.count]
        stepIndex += 1
        let count = min(buffer.count, step, bytes.count - offset)
        guard count > 0 else { return 0 }
        for index in 0 ..< count { buffer[index] = bytes[offset + index] }
        offset += count
        return count
    }
}

/// Produces some bytes, then fails with the given error: proves errors are never swallowed.
final class FailingSource: ByteSource {
    let name = "<failing>"
    var byteCount: Int64? { nil }
    private var prefix: [UInt8]
    private let error: any Error

    init(prefix: [UInt8], error: any Error) {
        self.prefix = prefix
        self.error = error
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard !prefix.isEmpty else { throw error }
        let count = min(buffer.count, prefix.count)
        for index in 0 ..< count { buffer[index] = prefix[index] }
        prefix.removeFirst(count)
        return count
    }
}

/// An endless source of `line\n`, counting what was read: for cancellation and backpressure tests.
final class EndlessSource: ByteSource, Sendable {
    let name = "<endless>"
    var byteCount: Int64? { nil }
    private let produced = Atomic<Int>(0)
    private let pattern = Array("0123456789abcdef0123456789abcdef\n".utf8)

    /// Bytes handed out so far; safe to read from any thread.
    var bytesProduced: Int { produced.load(ordering: .relaxed) }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let start = bytesProduced
        for index in 0 ..< buffer.count { buffer[index] = pattern[(start + index) % pattern.count] }
        produced.store(start + buffer.count, ordering: .relaxed)
        return buffer.count
    }
}

/// Collects every line of a reader as owned byte arrays.
func collectLines(_ reader: Reader) throws -> [[UInt8]] {
    var lines: [[UInt8]] = []
    try reader.forEachLine { line in
        #expect(line.number == lines.count + 1)
        lines.append(Array(line.bytes))
    }
    return lines
}

extension Array where Element == UInt8 {
    /// The UTF-8 bytes of a string.
    init(text: String) { self = Array(text.utf8) }
}
