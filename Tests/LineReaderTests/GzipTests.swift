import LineReader
import TestSupport
import Testing

@Suite("Gzip input")
struct GzipTests {
    static let text = [UInt8](text: (1 ... 3000).map { "\($0),Stop \($0),52.5\($0),13.4\($0)\r\n" }.joined())

    @Test("One member is detected by its magic bytes and inflated", arguments: [1, 3, 64, 4096, 65536])
    func singleMember(chunkSize: Int) throws {
        let reader = try Reader(bytes: gzipped(Self.text), options: .init(chunkSize: chunkSize))
        #expect(try collectLines(reader) == ReferenceSplitter.lines(Self.text))
        #expect(reader.isGzip)
    }

    @Test("Concatenated members are read to the end", arguments: [1, 7, 4096])
    func concatenatedMembers(chunkSize: Int) throws {
        let parts = [[UInt8](text: "a\nb"), [UInt8](text: "c\n"), [], Self.text]
        let joined = parts.flatMap { gzipped($0) }
        let reader = try Reader(bytes: joined, options: .init(chunkSize: chunkSize))
        #expect(try collectLines(reader) == ReferenceSplitter.lines(parts.flatMap { $0 }))
    }

    @Test("Zero padding after the last member is ignored")
    func zeroPadding() throws {
        let padded = gzipped([UInt8](text: "x\ny\n")) + [UInt8](repeating: 0, count: 512)
        #expect(try collectLines(Reader(bytes: padded)) == [[0x78], [0x79]])
    }

    @Test("Gzip of an empty file gives no lines")
    func emptyMember() throws {
        #expect(try collectLines(Reader(bytes: gzipped([]))).isEmpty)
    }

    @Test("Highly compressible data: output zlib still holds when the input has ended is delivered",
          arguments: [1 << 12, 1 << 16], [8 << 20])
    func pendingOutputAtTheEnd(chunkSize: Int, newlines: Int) throws {
        // A header and megabytes of empty lines compress to a few KB, whose last bytes expand to more
        // than one output buffer: the input ends while zlib still has output to give.
        let text = [UInt8](text: "stop_id,stop_name\n") + [UInt8](repeating: 0x0A, count: newlines)
        for compressed in [Deflate.raw(text), gzipped(text)] {
            let source: any ByteSource =
                compressed.first == 0x1F ? MemorySource(compressed, name: "newlines.gz")
                : try DeflateSource(compressed: MemorySource(compressed, name: "newlines.zip"), name: "newlines.zip")
            let reader = try Reader(source: source, options: .init(chunkSize: chunkSize))
            var count = 0
            try reader.forEachLine { _ in count += 1 }
            #expect(count == newlines + 1, "\(compressed.count) compressed bytes")
        }
    }

    @Test("A truncated stream throws truncatedCompressedData with the compressed offset, at every cut")
    func truncated() throws {
        let full = gzipped(Self.text)
        for cut in [2, 10, full.count / 2, full.count - 1] {
            let reader = try Reader(source: MemorySource(full[0 ..< cut], name: "cut.gz"), options: .init(chunkSize: 512))
            #expect(throws: ReaderError.truncatedCompressedData(source: "cut.gz", format: "gzip", offset: Int64(cut))) {
                try reader.forEachLine { _ in }
            }
        }
    }

    @Test("A corrupted stream throws corruptCompressedData naming the input and an offset inside it")
    func corrupted() throws {
        var damaged = gzipped(Self.text)
        let middle = damaged.count / 2
        for index in middle ..< middle + 8 { damaged[index] ^= 0x5A }
        let reader = try Reader(source: MemorySource(damaged, name: "bad.gz"))
        do {
            try reader.forEachLine { _ in }
            Issue.record("a corrupt stream must not end quietly")
        } catch let ReaderError.corruptCompressedData(source, format, offset, reason) {
            #expect(source == "bad.gz")
            #expect(format == "gzip")
            #expect(offset >= Int64(middle) && offset <= Int64(damaged.count))
            #expect(!reason.isEmpty)
        }
    }

    @Test("A damaged CRC in the trailer is an error, not silently accepted output")
    func badChecksum() throws {
        var damaged = gzipped(Self.text)
        damaged[damaged.count - 6] ^= 0xFF
        #expect(throws: ReaderError.self) { try Reader(bytes: damaged).forEachLine { _ in } }
    }

    @Test("Garbage after a member is an error")
    func trailingGarbage() throws {
        let input = gzipped([UInt8](text: "a\n")) + [UInt8](text: "not gzip")
        #expect(throws: ReaderError.self) { try Reader(bytes: input).forEachLine { _ in } }
    }

    @Test("Gzip detection can be turned off: the bytes are read as they are")
    func detectionOff() throws {
        let compressed = gzipped([UInt8](text: "a\n"))
        let reader = try Reader(bytes: compressed, options: .init(decompressesGzip: false))
        #expect(try collectLines(reader) == ReferenceSplitter.lines(compressed))
        #expect(!reader.isGzip)
    }

    @Test("Progress counts compressed bytes")
    func compressedProgress() throws {
        let compressed = gzipped(Self.text)
        let reader = try Reader(bytes: compressed)
        try reader.forEachLine { _ in }
        #expect(reader.bytesRead == Int64(compressed.count))
    }
}
