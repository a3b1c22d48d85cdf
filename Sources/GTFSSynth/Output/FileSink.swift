import Platform

/// A file opened for writing (created or truncated, mode 0644), written with `write(2)`.
final class FileSink: OffsetSink {
    /// The file's path, for error messages.
    let path: String
    /// Bytes written so far: the offset of the next byte.
    private(set) package var offset: Int64 = 0
    private var descriptor: Int32

    /// Creates or truncates `path`.
    /// - Throws: ``SyntheticFeedError`` when the file cannot be opened.
    init(path: String) throws {
        self.path = path
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw SyntheticFeedError.system(path, "open") }
    }

    deinit {
        if descriptor >= 0 { _ = closeDescriptor(descriptor) }
    }

    package func write(_ bytes: UnsafeRawBufferPointer) throws {
        let code = System.writeAll(descriptor, bytes)
        if code != 0 { throw SyntheticFeedError.system(path, "write", errno: code) }
        offset += Int64(bytes.count)
    }

    /// Closes the file, reporting a failed close (a delayed write error) instead of losing it.
    package func close() throws {
        guard descriptor >= 0 else { return }
        let result = closeDescriptor(descriptor)
        descriptor = -1
        if result != 0 { throw SyntheticFeedError.system(path, "close") }
    }
}

extension SyntheticFeedError {
    /// The failure of the system call just made: `cannot write: No space left on device (errno 28)`.
    static func system(_ path: String, _ operation: String, errno code: Int32 = errno) -> SyntheticFeedError {
        return SyntheticFeedError(path: path, message: "cannot \(operation): \(System.message(forErrno: code)) (errno \(code))")
    }
}

/// `close(2)`, named apart from the sink's own `close()`.
private func closeDescriptor(_ descriptor: Int32) -> Int32 {
    close(descriptor)
}
