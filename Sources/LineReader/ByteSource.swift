/// A producer of raw bytes that a ``Reader`` reads in chunks.
///
/// The package provides ``FileSource`` (a path or an open file descriptor) and
/// ``MemorySource`` (bytes in memory). Conform your own type to read from anything
/// else, such as a socket or an archive entry:
///
/// ```swift
/// final class RepeatingSource: ByteSource {
///     var remaining = 3
///     let name = "<repeat>"
///     var byteCount: Int64? { nil }
///     func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
///         guard remaining > 0, buffer.count >= 2 else { return 0 }
///         remaining -= 1
///         buffer.copyBytes(from: "x\n".utf8)
///         return 2
///     }
/// }
/// let reader = try Reader(source: RepeatingSource())
/// ```
public protocol ByteSource: AnyObject {
    /// The name used in error messages: a path, `<stdin>`, `<memory>`, ….
    var name: String { get }

    /// The total number of bytes the source will produce, when known in advance (used for progress).
    var byteCount: Int64? { get }

    /// Reads up to `buffer.count` bytes into `buffer`.
    ///
    /// - Parameter buffer: the destination; never empty.
    /// - Returns: the number of bytes written, `0` only at the end of the input.
    /// - Throws: an error describing the failure (``ReaderError/io(source:operation:errno:)`` for system calls).
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
}
