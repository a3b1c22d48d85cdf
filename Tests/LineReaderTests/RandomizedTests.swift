import TestSupport
import LineReader
import Testing

/// Seeded random inputs: mixed endings, long and empty lines, BOMs, plain and gzip.
@Suite("Randomized inputs")
struct RandomizedTests {
    static func randomInput(_ rng: inout SeededGenerator) -> [UInt8] {
        var bytes: [UInt8] = Bool.random(using: &rng) ? [0xEF, 0xBB, 0xBF] : []
        for _ in 0 ..< Int.random(in: 0 ... 60, using: &rng) {
            let length: Int
            switch Int.random(in: 0 ..< 10, using: &rng) {
            case 0: length = 0
            case 1: length = Int.random(in: 500 ... 9000, using: &rng)
            default: length = Int.random(in: 1 ... 80, using: &rng)
            }
            for _ in 0 ..< length {
                // Mostly text, sometimes a stray \r or non-ASCII byte.
                switch Int.random(in: 0 ..< 40, using: &rng) {
                case 0: bytes.append(0x0D)
                case 1: bytes.append(contentsOf: [0xC3, 0xBC])
                default: bytes.append(UInt8.random(in: 0x20 ... 0x7E, using: &rng))
                }
            }
            switch Int.random(in: 0 ..< 3, using: &rng) {
            case 0: bytes.append(0x0A)
            case 1: bytes.append(contentsOf: [0x0D, 0x0A])
            default: bytes.append(0x0A)
            }
        }
        if Bool.random(using: &rng), !bytes.isEmpty { bytes.removeLast() }
        return bytes
    }

    @Test("Reader equals the reference on random inputs", arguments: 0 ..< 40)
    func randomCase(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        let input = Self.randomInput(&rng)
        let expected = ReferenceSplitter.lines(input)
        let chunkSize = [1, 2, 3, 7, 64, 333, 4096, 65536].randomElement(using: &rng) ?? 4096
        let plain = try collectLines(Reader(bytes: input, options: .init(chunkSize: chunkSize)))
        #expect(plain == expected, "seed \(seed), chunk size \(chunkSize)")
        let compressed = try collectLines(Reader(bytes: gzipped(input), options: .init(chunkSize: chunkSize)))
        #expect(compressed == expected, "seed \(seed), chunk size \(chunkSize), gzip")
        let steps = (0 ..< 5).map { _ in Int.random(in: 1 ... 100, using: &rng) }
        let dripped = try collectLines(Reader(source: DripSource(input, steps: steps), options: .init(chunkSize: chunkSize)))
        #expect(dripped == expected, "seed \(seed), chunk size \(chunkSize), steps \(steps)")
    }
}
