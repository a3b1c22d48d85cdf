import Platform

/// Bytes read with `read(2)` from a file path or an already open file descriptor.
///
/// A source opened from a path owns its descriptor and closes it when released;
/// a source made from a descriptor leaves it open.
public final class FileSource: ByteSource {
    /// The path or name used in error messages.
    public let name: String
    /// The file's size when it is a regular file, otherwise `nil` (pipes, terminals, sockets).
    public let byteCount: Int64?
    private let descriptor: Int32
    private let ownsDescriptor: Bool

    /// Opens a file for reading.
    ///
    /// - Parameter path: the file's path.
    /// - Throws: ``ReaderError/io(source:operation:errno:)`` when the file cannot be opened
    ///   (missing, no permission, …).
    public init(path: String) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ReaderError.io(source: path, operation: "open", errno: errno) }
        self.name = path
        self.descriptor = fd
        self.ownsDescriptor = true
        self.byteCount = Self.regularFileSize(fd)
    }

    /// Reads from a descriptor the caller opened and will close.
    ///
    /// - Parameters:
    ///   - fileDescriptor: an open, readable descriptor, e.g. `STDIN_FILENO`.
    ///   - name: the name to use in error messages.
    public init(fileDescriptor: Int32, name: String) {
        self.name = name
        self.descriptor = fileDescriptor
        self.ownsDescriptor = false
        self.byteCount = Self.regularFileSize(fileDescriptor)
    }

    /// Standard input, named `<stdin>` in errors.
    /// - Returns: a source over `STDIN_FILENO`, which it leaves open.
    public static func standardInput() -> FileSource {
        FileSource(fileDescriptor: STDIN_FILENO, name: "<stdin>")
    }

    deinit {
        if ownsDescriptor { close(descriptor) }
    }

    /// Reads up to `buffer.count` bytes, retrying when a signal interrupts the call.
    ///
    /// - Parameter buffer: the destination.
    /// - Returns: the number of bytes read, `0` at the end of the file.
    ///
    /// - Throws: ``ReaderError/io(source:operation:errno:)`` (`EISDIR` for a directory, `EIO`, …).
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        while true {
            let n = System.read(descriptor, base, buffer.count)
            if n >= 0 { return n }
            let code = errno
            if code == EINTR { continue }
            throw ReaderError.io(source: name, operation: "read", errno: code)
        }
    }

    private static func regularFileSize(_ fd: Int32) -> Int64? {
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int64(info.st_size)
    }
}
