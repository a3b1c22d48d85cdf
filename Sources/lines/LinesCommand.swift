import ArgumentParser
import LineReader

import Platform
import ToolSupport

/// `lines`: prints or counts the lines of a file, gzip or not, the way a tool embedding `Reader` would.
@main
struct LinesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lines",
        abstract: "Print or count the lines of a file (plain or gzip), normalising CRLF to LF.",
        discussion: """
            Without --count, writes every line followed by "\\n": the output equals the input with CRLF \
            turned into LF, a UTF-8 byte-order mark dropped, and a final newline added where missing.
            """,
        version: ToolVersion.number
    )

    @Flag(name: .long, help: "Print the number of lines instead of the lines.")
    var count = false

    @Option(name: .long, help: "Bytes read per chunk (1 to 16 MiB).")
    var chunkSize = 4096

    @Option(name: .long, help: "The longest line accepted, in bytes (default 64 MiB); a longer one is an error.")
    var maxLineLength = Reader.Options().maxLineLength

    @Argument(help: "The input file, or - for standard input.")
    var file = "-"

    /// Parses and runs; a usage error exits with status 2, as the other tools' do.
    static func main() { runAsTool() }

    func validate() throws {
        do {
            try options.validate()
        } catch let error as ReaderError {
            switch error {
            case .invalidChunkSize: throw ValidationError("--chunk-size: \(error)")
            default: throw ValidationError("--max-line-length: \(error)")
            }
        }
    }

    private var options: Reader.Options { Reader.Options(chunkSize: chunkSize, maxLineLength: maxLineLength) }

    func run() throws {
        do {
            let options = self.options
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
            throw ToolFailure(error.description)
        }
    }
}
