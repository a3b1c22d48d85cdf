// The one place that names the C library: every other file imports Platform instead, so that a new
// platform is one branch here, not one in every file.
#if canImport(Glibc)
@_exported import Glibc
#elseif canImport(Musl)
@_exported import Musl
#elseif canImport(Darwin)
@_exported import Darwin
#else
#error("Platform: no C library module for this platform")
#endif

/// C library calls whose names a Swift declaration in scope shadows (a method `read(into:)`, ArgumentParser's
/// `exit`, `FileManager`-style names), reachable without naming the library.
package enum System {
    /// `read(2)`.
    package static func read(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        libraryRead(descriptor, buffer, count)
    }

    /// `write(2)`.
    package static func write(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
        libraryWrite(descriptor, buffer, count)
    }

    /// Writes all of `bytes` to `descriptor`, again after an interrupted or partial `write(2)`.
    /// - Returns: 0, or the `errno` of the failed write (`EIO` for a write that wrote nothing).
    package static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32 {
        guard let base = bytes.baseAddress else { return 0 }
        var done = 0
        while done < bytes.count {
            let written = write(descriptor, base + done, bytes.count - done)
            if written < 0 && errno == EINTR { continue }
            if written < 0 { return errno }
            // Nothing written and no error: retrying would loop for ever.
            if written == 0 { return EIO }
            done += written
        }
        return 0
    }

    /// `link(2)`: gives `path` a second name, failing with `EEXIST` when that name exists.
    package static func link(_ path: String, _ newPath: String) -> Int32 {
        libraryLink(path, newPath)
    }

    /// `exit(3)`.
    package static func exit(_ status: Int32) -> Never {
        libraryExit(status)
    }

    /// Flushes a file's data to the storage device: `fsync(2)`, and first `F_FULLFSYNC` on Darwin, where
    /// `fsync` may leave the data in the drive's cache, to be written later and out of order.
    /// - Returns: 0, or the `errno` of the failed flush.
    package static func flushToStorage(_ descriptor: Int32) -> Int32 {
        #if canImport(Darwin)
        if fcntl(descriptor, F_FULLFSYNC) == 0 { return 0 }
        #endif
        return fsync(descriptor) == 0 ? 0 : errno
    }

    /// Bytes an unprivileged writer may still use in the file system that holds `path`, or `nil` when it
    /// cannot be asked.
    package static func availableBytes(at path: String) -> Int64? {
        // Darwin's statvfs counts blocks in 32 bits, which wrap above 16 TiB free; its statfs does not.
        #if canImport(Darwin)
        var info = statfs()
        guard statfs(path, &info) == 0 else { return nil }
        let (blocks, size) = (Int64(clamping: info.f_bavail), Int64(clamping: info.f_bsize))
        #else
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { return nil }
        let (blocks, size) = (Int64(clamping: info.f_bavail), Int64(clamping: info.f_frsize))
        #endif
        let (bytes, overflow) = blocks.multipliedReportingOverflow(by: size)
        return overflow ? .max : bytes
    }

    /// A file's device and inode, which tell whether two paths or descriptors are one file (`dev_t` is
    /// signed on Darwin: its bits, not its value).
    package static func fileIdentity(_ status: stat) -> (device: UInt64, inode: UInt64) {
        (UInt64(truncatingIfNeeded: status.st_dev), UInt64(truncatingIfNeeded: status.st_ino))
    }

    /// The identity (``fileIdentity(_:)``) of the file at `path`, through symbolic links; `nil` when there is none.
    package static func fileIdentity(atPath path: String) -> (device: UInt64, inode: UInt64)? {
        var status = stat()
        return stat(path, &status) == 0 ? fileIdentity(status) : nil
    }

    /// Whether `descriptor` is open on the file `status` describes.
    package static func isSameFile(_ descriptor: Int32, _ status: stat) -> Bool {
        var open = stat()
        return fstat(descriptor, &open) == 0 && fileIdentity(open) == fileIdentity(status)
    }

    /// The end of `path`'s chain of symbolic links: `path` itself when it is not a link, else the path
    /// the last link names, which may not exist yet (a file created there is the one the link leads to).
    /// A relative target counts from the folder of its link. After 40 links (the kernel's limit) it gives
    /// the link it reached, which then fails to open with `ELOOP`.
    package static func endOfLinks(_ path: String) -> String {
        var current = path
        for _ in 0 ..< 40 {
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(current, &buffer, buffer.count - 1)
            guard count > 0 else { break }  // not a link, or nothing there
            let target = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            guard !target.hasPrefix("/"), let slash = current.lastIndex(of: "/") else {
                current = target
                continue
            }
            current = String(current[...slash]) + target
        }
        return current
    }

    /// The C library's text for an `errno` value (`No such file or directory`).
    package static func message(forErrno code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }
}

// At file scope these names are the C library's (inside `System` they would be its own methods), whichever
// library the import above chose.
private func libraryRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { read(descriptor, buffer, count) }
private func libraryWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int { write(descriptor, buffer, count) }
private func libraryLink(_ path: String, _ newPath: String) -> Int32 { link(path, newPath) }
private func libraryExit(_ status: Int32) -> Never { exit(status) }
