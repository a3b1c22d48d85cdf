import LineReader
import Testing

@Suite("AsyncSequence of lines")
struct AsyncLinesTests {
    @Test("for try await yields every line with its number")
    func allLines() async throws {
        let bytes = [UInt8](text: "\u{FEFF}a\r\n\nb")
        var seen: [OwnedLine] = []
        for try await line in try Reader(bytes: bytes, options: .init(chunkSize: 2)).lines {
            seen.append(line)
        }
        #expect(seen == [OwnedLine(number: 1, bytes: [0x61]), OwnedLine(number: 2, bytes: []), OwnedLine(number: 3, bytes: [0x62])])
    }

    @Test("Cancelling the task stops the iteration with CancellationError")
    func cancellation() async throws {
        let source = EndlessSource()
        let reader = try Reader(source: source)
        let task = Task { () -> (Int, Bool) in
            var count = 0
            do {
                for try await _ in reader.lines {
                    count += 1
                    if count == 1000 { withUnsafeCurrentTask { $0?.cancel() } }
                }
            } catch is CancellationError {
                return (count, true)
            }
            return (count, false)
        }
        let (count, cancelled) = try await task.value
        #expect(cancelled)
        #expect(count == 1000)
    }

    @Test("A reading error is thrown from the loop")
    func errorsPropagate() async throws {
        let reader = try Reader(source: MemorySource(gzipped([UInt8](text: "a\nb\n")).dropLast(4), name: "short.gz"))
        await #expect(throws: ReaderError.self) {
            for try await _ in reader.lines {}
        }
    }
}
