import TestSupport

/// Random choices from a seeded SplitMix64 (TestSupport's ``SeededGenerator``). Ranges are drawn by
/// modulo, not with the standard library's `random(in:using:)`, whose algorithm may change between
/// toolchains: a seed must give the same feed everywhere so a failure can be repeated.
struct Draws {
    private var generator: SeededGenerator

    init(seed: UInt64) { generator = SeededGenerator(seed: seed) }

    /// A number in `range` (the slight modulo bias does not matter here).
    mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(generator.next() % UInt64(range.upperBound - range.lowerBound + 1))
    }

    /// True `percent` times in a hundred.
    mutating func chance(_ percent: Int) -> Bool { int(0 ... 99) < percent }

    /// One of `items`, which must not be empty.
    mutating func element<T>(_ items: [T]) -> T { items[int(0 ... items.count - 1)] }

    /// `items` in a random order (Fisher–Yates, for the same reason as ``int(_:)``).
    mutating func shuffled<T>(_ items: [T]) -> [T] {
        var result = items
        for index in stride(from: result.count - 1, to: 0, by: -1) { result.swapAt(index, int(0 ... index)) }
        return result
    }
}
