import Foundation
import LineReader
import Testing

@Suite("Read errors")
struct ErrorTests {
    @Test("A missing file names the path and errno ENOENT")
    func missingFile() {
        #expect(throws: ReaderError.io(source: "/nonexistent/stops.txt", operation: "open", errno: ENOENT)) {
            try Reader(path: "/nonexistent/stops.txt")
        }
        let message = ReaderError.io(source: "x.txt", operation: "open", errno: ENOENT).description
        #expect(message == "x.txt: cannot open: No such file or directory (errno 2)")
    }

    @Test("A directory throws EISDIR on the first read")
    func directory() throws {
        let reader = try Reader(path: NSTemporaryDirectory())
        #expect(throws: ReaderError.io(source: NSTemporaryDirectory(), operation: "read", errno: EISDIR)) {
            try reader.forEachLine { _ in }
        }
    }

    /// Linux's memory of this process: reading it at offset 0, an unmapped address, fails with EIO.
    static let unmappedMemory = "/proc/self/mem" // platform-check: allowed, the test runs only where it exists

    @Test(
        "EIO from the kernel surfaces with the path (reading /proc/self/mem at offset 0)",
        .enabled(if: FileManager.default.fileExists(atPath: ErrorTests.unmappedMemory), "needs Linux's /proc")
    )
    func inputOutputError() throws {
        let reader = try Reader(path: Self.unmappedMemory)
        #expect(throws: ReaderError.io(source: Self.unmappedMemory, operation: "read", errno: EIO)) {
            try reader.forEachLine { _ in }
        }
    }

    @Test("A descriptor that is not readable throws EBADF")
    func unreadableDescriptor() throws {
        let path = NSTemporaryDirectory() + "linereader-wronly-\(getpid())"
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        defer { close(fd); unlink(path) }
        let reader = try Reader(fileDescriptor: fd, name: "wronly")
        #expect(throws: ReaderError.io(source: "wronly", operation: "read", errno: EBADF)) {
            try reader.forEachLine { _ in }
        }
    }

    @Test("A source's own error reaches the caller after the lines before it")
    func sourceErrorIsNotSwallowed() throws {
        struct Broken: Error, Equatable {}
        let reader = try Reader(source: FailingSource(prefix: [UInt8](text: "one\ntwo\nthr"), error: Broken()))
        var lines: [String] = []
        #expect(throws: Broken()) { try reader.forEachLine { line in lines.append(line.string) } }
        #expect(lines == ["one", "two"])
    }
}
