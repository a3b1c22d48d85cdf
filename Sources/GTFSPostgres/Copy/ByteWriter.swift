/// Bytes appended one or a few at a time into memory it owns: appending to an `Array` checks uniqueness
/// and capacity at every call, which took a third of the client's time while encoding `COPY` rows.
/// A reference type: the encoder that holds it is used by one thread, and never copied to write on.
/// It stays in this module, beside `gtfs-synth`'s `RowBuffer` of the same idea: called from another module,
/// even with inlinable appends, the encoding took three times the CPU (Benchmarks/README.md).
final class ByteWriter {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// The bytes written since the last ``take()``.
    private(set) var count = 0

    init(capacity: Int = 1 << 17) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// Makes room for `extra` more bytes.
    @inline(__always)
    func reserve(_ extra: Int) {
        if extra > capacity - count { grow(to: count + extra) }
    }

    @inline(__always)
    func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    @inline(__always)
    func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        reserve(bytes.count)
        (base + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    /// Appends a byte at `index` bytes past the end without counting it (``advance(by:)`` does), after
    /// ``reserve(_:)`` made room for it.
    @inline(__always)
    func put(_ byte: UInt8, at index: Int) {
        base[count + index] = byte
    }

    /// Counts bytes written with ``put(_:at:)``.
    @inline(__always)
    func advance(by written: Int) {
        count += written
    }

    /// The bytes written, and starts again empty (keeping the memory).
    func take() -> [UInt8] {
        defer { count = 0 }
        return Array(UnsafeBufferPointer(start: base, count: count))
    }

    private func grow(to needed: Int) {
        let newCapacity = max(needed, capacity * 2)
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        grown.update(from: base, count: count)
        base.deallocate()
        base = grown
        capacity = newCapacity
    }
}
