import TestSupport
@testable import LineReader
import Testing

/// `Reader.Options.skipsOverlongLines`: a line over the limit is delivered empty with its length, its bytes
/// dropped as they arrive, and reading goes on.
@Suite("Skipping overlong lines")
struct OverlongLineTests {
    /// The lines of `text` read with a limit of 100 bytes, skipping longer ones: (number, text, overlong length).
    static func lines(_ text: String, chunkSize: Int, gzip: Bool = false) throws -> [(Int, String, Int)] {
        var options = Reader.Options(chunkSize: chunkSize, maxLineLength: 100)
        options.skipsOverlongLines = true
        let bytes = Array(text.utf8)
        let reader = try Reader(bytes: gzip ? gzipped(bytes) : bytes, options: options)
        var result: [(Int, String, Int)] = []
        try reader.forEachLine { line in
            #expect(line.overlongLength == 0 || line.isEmpty)
            result.append((line.number, line.string, line.overlongLength))
        }
        return result
    }

    @Test("Overlong lines anywhere: numbered, measured without their terminator, the others intact",
          arguments: [1, 7, 64, 100, 101, 4096])
    func skipped(chunkSize: Int) throws {
        let long = String(repeating: "x", count: 250)
        let text = "a\n\(long)\r\nb\n\(String(repeating: "y", count: 101))\n\r\n\(String(repeating: "z", count: 100))\n\(long)"
        for gzip in [false, true] {
            let lines = try Self.lines(text, chunkSize: chunkSize, gzip: gzip)
            #expect(lines.map(\.0) == [1, 2, 3, 4, 5, 6, 7])
            #expect(lines.map(\.1) == ["a", "", "b", "", "", String(repeating: "z", count: 100), ""])
            #expect(lines.map(\.2) == [0, 250, 0, 101, 0, 0, 250], "chunk size \(chunkSize), gzip \(gzip)")
        }
    }

    @Test("An endless line is dropped as it arrives: the buffer stays under twice the limit plus two chunks")
    func boundedMemory() throws {
        final class Repeating: ByteSource {
            let name = "<repeating>"
            var byteCount: Int64? { nil }
            var produced = 0
            func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
                guard produced < 5_000_000 else { return 0 }
                for index in 0 ..< buffer.count { buffer[index] = 0x41 }
                produced += buffer.count
                return buffer.count
            }
        }
        var options = Reader.Options(chunkSize: 4096, maxLineLength: 1 << 19)
        options.skipsOverlongLines = true
        let source = Repeating()
        let reader = try Reader(source: source, options: options)
        var lengths: [Int] = []
        try reader.forEachLine { line in lengths.append(line.overlongLength) }
        #expect(lengths == [source.produced])
        // The buffer grows by doubling: at most twice the limit and two chunks, however long the line.
        #expect(reader.splitter.bufferCapacity <= 2 * ((1 << 19) + 2 * 4096 + 128))
    }

    @Test("A line past 16 times the limit throws as soon as it passes that, not at its end",
          arguments: [1, 4096, 65_536])
    func endlessLine(chunkSize: Int) throws {
        /// Zeros without a line break, far past the skipping limit.
        final class Zeros: ByteSource {
            let name = "<zeros>"
            var byteCount: Int64? { nil }
            var produced = 0
            func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
                guard produced < 64 << 20 else { return 0 }
                buffer.initializeMemory(as: UInt8.self, repeating: 0)
                produced += buffer.count
                return buffer.count
            }
        }
        var options = Reader.Options(chunkSize: chunkSize, maxLineLength: 1 << 16)
        options.skipsOverlongLines = true
        #expect(options.skippedLineLimit == 1 << 20)
        let source = Zeros()
        let endless = try Reader(source: source, options: options)
        #expect {
            try endless.forEachLine { _ in }
        } throws: { error in
            guard case ReaderError.lineTooLong(_, 1, let limit) = error else { return false }
            return limit == 1 << 20
        }
        #expect(source.produced <= (1 << 20) + (1 << 16) + 2 * chunkSize, "read \(source.produced) bytes")
    }
}
