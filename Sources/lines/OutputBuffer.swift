import Platform

import LineReader

/// A fixed 64 KiB output buffer flushed with `write(2)`: no allocation per line.
/// A failed write throws ``ReaderError/io(source:operation:errno:)``, worded like a failed read.
final class OutputBuffer {
    private let descriptor: Int32
    private let name: String
    private let storage: UnsafeMutableRawPointer
    private let capacity = 64 * 1024
    private var count = 0

    init(fileDescriptor: Int32, name: String) {
        self.descriptor = fileDescriptor
        self.name = name
        self.storage = .allocate(byteCount: capacity, alignment: 16)
    }

    deinit { storage.deallocate() }

    /// Appends bytes, flushing first when they do not fit.
    func write(_ bytes: UnsafeRawBufferPointer) throws {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        if count + bytes.count > capacity { try flush() }
        if bytes.count > capacity {
            try writeAll(base, bytes.count)
            return
        }
        (storage + count).copyMemory(from: base, byteCount: bytes.count)
        count += bytes.count
    }

    /// Appends one byte.
    @inline(__always)
    func write(byte: UInt8) throws {
        if count == capacity { try flush() }
        storage.storeBytes(of: byte, toByteOffset: count, as: UInt8.self)
        count += 1
    }

    /// Writes everything buffered.
    func flush() throws {
        try writeAll(storage, count)
        count = 0
    }

    private func writeAll(_ base: UnsafeRawPointer, _ total: Int) throws {
        let code = System.writeAll(descriptor, UnsafeRawBufferPointer(start: base, count: total))
        if code != 0 { throw ReaderError.io(source: name, operation: "write", errno: code) }
    }
}
