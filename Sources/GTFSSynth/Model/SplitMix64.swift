/// SplitMix64: a small seeded generator, so a feed depends only on its seed and scale.
///
/// The stdlib's `Int.random(in:using:)` is avoided on purpose: its algorithm may change between
/// toolchains, and the output must stay byte-identical. Ranges are mapped with a plain modulo (the bias is
/// below 2⁻⁴⁰ for the small ranges used here).
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    /// Starts the sequence at `seed`.
    init(seed: UInt64) { state = seed }

    /// An independent stream for one entity of one kind: the same `(seed, stream, index)` gives the same
    /// numbers whichever order the entities are generated in.
    init(seed: UInt64, stream: Stream, index: Int) {
        self.init(seed: seed, streamNumber: stream.rawValue, key: UInt64(truncatingIfNeeded: index))
    }

    /// The stream numbered `streamNumber` for the entity with `key` (a number or a hash of its id).
    init(seed: UInt64, streamNumber: UInt64, key: UInt64) {
        var mixer = SplitMix64(seed: seed ^ (streamNumber &* 0xD6E8_FEB8_6659_FD93))
        let base = mixer.next()
        state = base ^ (key &* 0x9E37_79B9_7F4A_7C15)
        _ = next()
    }

    /// The kinds of entities that draw their own stream.
    enum Stream: UInt64 {
        case stations = 1, platforms, platformTexts, levels, agencies, routes, patterns, trips, services, transfers, shapes
    }

    /// The next 64 random bits.
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0 ..< bound` (`bound` > 0).
    mutating func below(_ bound: Int) -> Int {
        Int(truncatingIfNeeded: next() % UInt64(max(1, bound)))
    }

    /// A number in `range`.
    mutating func int(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + below(range.upperBound - range.lowerBound + 1)
    }

    /// A number in `0 ..< 1`, with 53 random bits.
    mutating func unit() -> Double {
        Double(next() >> 11) * 0x1p-53
    }

    /// `true` with probability `p`.
    mutating func chance(_ p: Double) -> Bool { unit() < p }

    /// One element of a non-empty array.
    mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }

    /// An index into `weights`, drawn in proportion to them (the last index when all are zero).
    mutating func weightedIndex(_ weights: [Double]) -> Int {
        let total = weights.reduce(0, +)
        var target = unit() * total
        for (index, weight) in weights.enumerated() {
            if target < weight { return index }
            target -= weight
        }
        return weights.count - 1
    }
}
