import LineReader
import Testing

/// Every input, split at every chunk boundary, must give the reference lines.
@Suite("Chunk boundaries")
struct ChunkBoundaryTests {
    static let chunkSizes = [1, 2, 3, 4, 5, 7, 16, 64, 4096]

    static let inputs: [String] = [
        "",
        "\n",
        "\n\n\n",
        "a",
        "a\n",
        "a\nb",
        "a\r\nb\r\n",
        "a\r\nb",
        "\r\n\r\n",
        "a\r",
        "\r",
        "abc\rdef\n",
        "\u{FEFF}stop_id,stop_name\n1,Mitte\n",
        "\u{FEFF}",
        "\u{FEFF}\n",
        "\u{FEFF}x",
        "x\u{FEFF}y\n",
        "Lübeck St Jürgen\n\"Berlin, Staaken Bhf\"\r\n",
        String(repeating: "0123456789", count: 50) + "\nshort\n" + String(repeating: "z", count: 4097),
    ]

    @Test("Reader output equals the reference split", arguments: chunkSizes)
    func everyBoundary(chunkSize: Int) throws {
        for text in Self.inputs {
            let bytes = [UInt8](text: text)
            let reader = try Reader(bytes: bytes, options: .init(chunkSize: chunkSize))
            #expect(try collectLines(reader) == ReferenceSplitter.lines(bytes), "input \(text.debugDescription)")
        }
    }

    @Test("Drip-fed one byte at a time, and in irregular reads")
    func dripFeeding() throws {
        for text in Self.inputs {
            let bytes = [UInt8](text: text)
            for steps in [[1], [2, 1, 3], [5, 1, 1, 7]] {
                let reader = try Reader(source: DripSource(bytes, steps: steps), options: .init(chunkSize: 64))
                #expect(try collectLines(reader) == ReferenceSplitter.lines(bytes), "input \(text.debugDescription)")
            }
        }
    }

    @Test("CRLF split across two chunks gives the same lines as LF")
    func crlfAcrossChunks() throws {
        // With chunk size 2, "a\r" fills the first chunk and "\n" starts the second.
        let crlf = try collectLines(Reader(bytes: [UInt8](text: "a\r\nbc\r\n"), options: .init(chunkSize: 2)))
        let lf = try collectLines(Reader(bytes: [UInt8](text: "a\nbc\n"), options: .init(chunkSize: 2)))
        #expect(crlf == lf)
        #expect(crlf == [[UInt8](text: "a"), [UInt8](text: "bc")])
    }

    @Test("A \\r at the end of a chunk but not before \\n is kept")
    func carriageReturnInsideLine() throws {
        let lines = try collectLines(Reader(bytes: [UInt8](text: "ab\rcd\n"), options: .init(chunkSize: 3)))
        #expect(lines == [[UInt8](text: "ab\rcd")])
    }

    @Test("A \\r as the last byte of the file is dropped with the unterminated line")
    func carriageReturnAtEnd() throws {
        let lines = try collectLines(Reader(bytes: [UInt8](text: "x\nlast\r"), options: .init(chunkSize: 4)))
        #expect(lines == [[UInt8](text: "x"), [UInt8](text: "last")])
    }

    @Test("A BOM split across chunks is dropped; a BOM later in the file is kept")
    func byteOrderMark() throws {
        for chunkSize in [1, 2, 3] {
            let lines = try collectLines(Reader(bytes: [0xEF, 0xBB, 0xBF, 0x61, 0x0A], options: .init(chunkSize: chunkSize)))
            #expect(lines == [[0x61]])
        }
        let kept = try collectLines(Reader(bytes: [0x61, 0x0A, 0xEF, 0xBB, 0xBF, 0x0A]))
        #expect(kept == [[0x61], [0xEF, 0xBB, 0xBF]])
        // A lone prefix of the mark is data, not a mark.
        let partial = try collectLines(Reader(bytes: [0xEF, 0xBB, 0x0A]))
        #expect(partial == [[0xEF, 0xBB]])
    }

    @Test("Empty input gives no lines; only newlines give empty lines")
    func emptyAndNewlines() throws {
        #expect(try collectLines(Reader(bytes: [])).isEmpty)
        let newlines = try collectLines(Reader(bytes: [UInt8](repeating: 0x0A, count: 5), options: .init(chunkSize: 2)))
        #expect(newlines == Array(repeating: [], count: 5))
    }

    @Test("A line far longer than the chunk is delivered whole")
    func longLine() throws {
        let long = [UInt8](repeating: UInt8(ascii: "x"), count: 1_000_000)
        let lines = try collectLines(Reader(bytes: long + [0x0A, 0x79], options: .init(chunkSize: 4096)))
        #expect(lines == [long, [0x79]])
    }

    @Test("A custom delimiter keeps \\r and splits on its byte")
    func customDelimiter() throws {
        let reader = try Reader(bytes: [UInt8](text: "a\r;b\n;;c"), options: .init(chunkSize: 3, delimiter: UInt8(ascii: ";")))
        let lines = try collectLines(reader)
        #expect(lines == [[UInt8](text: "a\r"), [UInt8](text: "b\n"), [], [UInt8](text: "c")])
    }
}
