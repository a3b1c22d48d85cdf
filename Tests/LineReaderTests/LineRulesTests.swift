import LineReader
import Testing

@Suite("Line rules and limits")
struct LineRulesTests {
    @Test("Line numbers are 1-based and count empty lines")
    func numbering() throws {
        var seen: [(Int, String)] = []
        try Reader(bytes: [UInt8](text: "a\n\nb\n")).forEachLine { line in seen.append((line.number, line.string)) }
        #expect(seen.map(\.0) == [1, 2, 3])
        #expect(seen.map(\.1) == ["a", "", "b"])
    }

    @Test("The body can stop early, and a later call continues after that line")
    func earlyStop() throws {
        let reader = try Reader(bytes: [UInt8](text: "1\n2\n3\n4\n"), options: .init(chunkSize: 1))
        var first: [String] = []
        let delivered = try reader.forEachLine { line, stop in
            first.append(line.string)
            if line.number == 2 { stop = true }
        }
        #expect(delivered == 2)
        #expect(first == ["1", "2"])
        var rest: [Int] = []
        try reader.forEachLine { line in rest.append(line.number) }
        #expect(rest == [3, 4])
        #expect(reader.lineCount == 4)
    }

    @Test("A line over maxLineLength throws lineTooLong with its number and the limit")
    func lineTooLong() throws {
        let input = [UInt8](text: "ok\n" + String(repeating: "x", count: 100) + "\nafter\n")
        for chunkSize in [1, 7, 4096] {
            let reader = try Reader(bytes: input, options: .init(chunkSize: chunkSize, maxLineLength: 10))
            var delivered: [String] = []
            #expect(throws: ReaderError.lineTooLong(source: "<memory>", lineNumber: 2, limit: 10)) {
                try reader.forEachLine { line in delivered.append(line.string) }
            }
            #expect(delivered == ["ok"])
            // The reader stays failed rather than skipping ahead.
            #expect(throws: ReaderError.lineTooLong(source: "<memory>", lineNumber: 2, limit: 10)) {
                try reader.forEachLine { _ in }
            }
        }
    }

    @Test("A line of exactly maxLineLength passes, with LF, CRLF or no terminator")
    func lineAtLimit() throws {
        let ten = String(repeating: "y", count: 10)
        for text in [ten + "\n", ten + "\r\n", ten] {
            let lines = try collectLines(Reader(bytes: [UInt8](text: text), options: .init(chunkSize: 3, maxLineLength: 10)))
            #expect(lines == [[UInt8](text: ten)])
        }
        #expect(throws: ReaderError.lineTooLong(source: "<memory>", lineNumber: 1, limit: 10)) {
            try Reader(bytes: [UInt8](text: ten + "y"), options: .init(maxLineLength: 10)).forEachLine { _ in }
        }
    }

    @Test("An endless line is refused without reading far past the limit")
    func endlessLineStopsEarly() throws {
        final class Unterminated: ByteSource {
            let name = "<unterminated>"
            var byteCount: Int64? { nil }
            var produced = 0
            func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
                for index in 0 ..< buffer.count { buffer[index] = 0x41 }
                produced += buffer.count
                return buffer.count
            }
        }
        let source = Unterminated()
        let reader = try Reader(source: source, options: .init(chunkSize: 4096, maxLineLength: 1 << 20))
        #expect(throws: ReaderError.lineTooLong(source: "<unterminated>", lineNumber: 1, limit: 1 << 20)) {
            try reader.forEachLine { _ in }
        }
        #expect(source.produced <= (1 << 20) + 2 * 4096)
    }

    @Test("Chunk size and line limit must be positive")
    func invalidOptions() {
        #expect(throws: ReaderError.invalidChunkSize(0)) { try Reader(bytes: [], options: .init(chunkSize: 0)) }
        #expect(throws: ReaderError.invalidChunkSize(-5)) { try Reader(path: "/nonexistent", chunkSize: -5) }
        #expect(throws: ReaderError.invalidMaxLineLength(0)) { try Reader(bytes: [], options: .init(maxLineLength: 0)) }
    }

    @Test("line.string decodes UTF-8 and owned() outlives the callback")
    func decoding() throws {
        var owned: [OwnedLine] = []
        try Reader(bytes: [UInt8](text: "Lübeck St Jürgen\n\"Berlin, Staaken Bhf\"\n")).forEachLine { line in
            owned.append(line.owned())
        }
        #expect(owned.map(\.string) == ["Lübeck St Jürgen", "\"Berlin, Staaken Bhf\""])
        #expect(owned.map(\.number) == [1, 2])
    }

    @Test("Progress: bytesRead reaches the source size")
    func progress() throws {
        let bytes = [UInt8](text: String(repeating: "line\n", count: 1000))
        let reader = try Reader(bytes: bytes, options: .init(chunkSize: 100))
        #expect(reader.totalBytes == 5000)
        try reader.forEachLine { _ in }
        #expect(reader.bytesRead == 5000)
    }
}
