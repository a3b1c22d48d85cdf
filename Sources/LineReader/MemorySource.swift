/// Bytes held in memory, handed out in chunks like a file.
public final class MemorySource: ByteSource {
    /// The name used in error messages, `<memory>` by default.
    public let name: String
    private let bytes: [UInt8]
    private var offset = 0

    /// The total number of bytes.
    public var byteCount: Int64? { Int64(bytes.count) }

    /// Wraps a byte sequence.
    ///
    /// - Parameters:
    ///   - bytes: the input; it is copied once.
    ///   - name: the name to use in error messages.
    public init(_ bytes: some Sequence<UInt8>, name: String = "<memory>") {
        self.bytes = Array(bytes)
        self.name = name
    }

    /// Copies the next bytes into `buffer`; returns `0` once everything was handed out.
    ///
    /// - Parameter buffer: the destination.
    /// - Returns: the number of bytes copied, `0` at the end.
    /// - Throws: never; the signature is ``ByteSource``'s.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = min(buffer.count, bytes.count - offset)
        guard count > 0 else { return 0 }
        bytes.withUnsafeBytes { all in
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: all[offset ..< offset + count]))
        }
        offset += count
        return count
    }
}
