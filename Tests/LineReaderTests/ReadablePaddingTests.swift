import TestSupport
@testable import LineReader
import Testing

/// `Line.readablePadding`: the bytes a scanner may read past a line's end are inside the reader's buffer.
@Suite("Readable padding after lines")
struct ReadablePaddingTests {
    @Test("Every line, plain or gzip, at any chunk size, has 64 readable bytes after it", arguments: 0 ..< 20)
    func padding(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed &+ 1000)
        let input = RandomizedTests.randomInput(&rng)
        let chunkSize = [1, 7, 64, 100, 4096].randomElement(using: &rng) ?? 64
        for bytes in [input, gzipped(input)] {
            let reader = try Reader(bytes: bytes, options: .init(chunkSize: chunkSize))
            var lines = 0
            var outside = 0
            try reader.forEachLine { line in
                lines += 1
                guard let base = line.bytes.baseAddress else { return }
                if !reader.splitter.bufferContains(base, count: line.count + Line.readablePadding) { outside += 1 }
            }
            #expect(outside == 0, "seed \(seed), chunk size \(chunkSize), \(lines) lines")
        }
    }
}
