import ArgumentParser
import LineReader

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `lines`: prints or counts the lines of a file, gzip or not, the way a tool embedding `Reader` would.
@main
struct LinesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lines",
        abstract: "Print or count the lines of a file (plain or gzip), normalising CRLF to LF.",
        discussion: """
            Without --count, writes every line followed by "\\n": the output equals the input with CRLF \
            turned into LF, a UTF-8 byte-order mark dropped, and a final newline added where missing.
            """
    )

    @Flag(name: .long, help: "Print the number of lines instead of the lines.")
    var count = false

    @Option(name: .long, help: "Bytes read per chunk (at least 1).")
    var chunkSize = 4096

    @Argument(help: "The input file, or - for standard input.")
    var file = "-"

    func validate() throws {
        guard chunkSize > 0 else { throw ValidationError("--chunk-size must be at least 1, got \(chunkSize)") }
    }

    func run() throws {
        do {
            let options = Reader.Options(chunkSize: chunkSize)
            let reader =
                file == "-"
                ? try Reader(source: FileSource.standardInput(), options: options)
                : try Reader(path: file, options: options)
            if count {
                let total = try reader.forEachLine { _ in }
                print(total)
            } else {
                let output = OutputBuffer(fileDescriptor: STDOUT_FILENO, name: "<stdout>")
                try reader.forEachLine { line in
                    try output.write(line.bytes)
                    try output.write(byte: UInt8(ascii: "\n"))
                }
                try output.flush()
            }
        } catch let error as ReaderError {
            Self.fail(error.description)
        }
    }

    /// Writes one line to standard error and exits with status 1.
    static func fail(_ message: String) -> Never {
        var text = "lines: \(message)\n"
        text.withUTF8 { bytes in _ = Glibc.write(STDERR_FILENO, bytes.baseAddress, bytes.count) }
        Glibc.exit(1)
    }
}
