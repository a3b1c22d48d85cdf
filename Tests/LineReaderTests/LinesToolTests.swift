import Foundation
import TestSupport
import Testing

/// The `lines` executable, run as a user would.
@Suite("lines tool, end to end")
struct LinesToolTests {
    static let stops = Repository.berlin.appendingPathComponent("vbb-2013/stops.txt").path

    @Test("Counts the Berlin 2013 stops file: 12,793 stops plus the header")
    func countBerlin() throws {
        let result = try ToolRunner.run("lines", ["--count", Self.stops])
        #expect(result.status == 0)
        #expect(String(decoding: result.stdout, as: UTF8.self) == "12794\n")
        let gz = try ToolRunner.run("lines", ["--count", Self.stops + ".gz"])
        #expect(String(decoding: gz.stdout, as: UTF8.self) == "12794\n")
    }

    @Test("Output equals the input for an LF file with a final newline, gzip or not", arguments: [1, 7, 4096])
    func identity(chunkSize: Int) throws {
        let original = try Data(contentsOf: URL(fileURLWithPath: Self.stops))
        let plain = try ToolRunner.run("lines", ["--chunk-size", "\(chunkSize)", Self.stops])
        #expect(plain.stdout == original)
        let gz = try ToolRunner.run("lines", ["--chunk-size", "\(chunkSize)", Self.stops + ".gz"])
        #expect(gz.stdout == original)
    }

    @Test("CRLF becomes LF, the BOM is dropped, a final newline is added")
    func normalisation() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write([0xEF, 0xBB, 0xBF] + Array("a\r\nb\n\r\nc".utf8), name: "crlf")
        let result = try ToolRunner.run("lines", [path])
        #expect(String(decoding: result.stdout, as: UTF8.self) == "a\nb\n\nc\n")
        let count = try ToolRunner.run("lines", ["--count", path])
        #expect(String(decoding: count.stdout, as: UTF8.self) == "4\n")
    }

    @Test("- reads standard input, gzip included")
    func standardInput() throws {
        let result = try ToolRunner.run("lines", ["--count", "-"], stdin: Data(gzipped(Array("x\ny\nz".utf8))))
        #expect(result.status == 0)
        #expect(String(decoding: result.stdout, as: UTF8.self) == "3\n")
        let passthrough = try ToolRunner.run("lines", [], stdin: Data("p\r\nq".utf8))
        #expect(String(decoding: passthrough.stdout, as: UTF8.self) == "p\nq\n")
    }

    @Test("Errors: one line on stderr naming the file, non-zero status")
    func errors() throws {
        let missing = try ToolRunner.run("lines", ["/nonexistent/stops.txt"])
        #expect(missing.status != 0)
        #expect(missing.stderr == "lines: /nonexistent/stops.txt: cannot open: No such file or directory (errno 2)\n")

        var damaged = gzipped(Array(String(repeating: "1,2,3\n", count: 5000).utf8))
        damaged = Array(damaged.prefix(damaged.count / 2))
        let folder = try TemporaryFolder()
        let path = try folder.write(damaged, name: "truncated.gz")
        let truncated = try ToolRunner.run("lines", ["--count", path])
        #expect(truncated.status != 0)
        #expect(truncated.stderr.hasPrefix("lines: \(path): truncated gzip data"))
        #expect(truncated.stderr.filter { $0 == "\n" }.count == 1)
        #expect(truncated.stdout.isEmpty)

        let badChunk = try ToolRunner.run("lines", ["--chunk-size", "0", Self.stops])
        #expect(badChunk.status == 2)
        #expect(badChunk.stderr.contains("--chunk-size: invalid chunk size 0: it must be 1 to 16777216 bytes"))
    }

    @Test("Option values that would overflow or allocate without bound are usage errors, status 2", arguments: [
        ["--chunk-size", "9223372036854775807"], ["--chunk-size", "1099511627776"], ["--chunk-size", "10737418240"],
        ["--chunk-size", "16777217"], ["--max-line-length", "9223372036854775807"], ["--max-line-length", "0"],
    ])
    func hugeOptions(_ arguments: [String]) throws {
        let result = try ToolRunner.run("lines", arguments + ["--count", Self.stops])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(!result.wasSignalled && result.stdout.isEmpty)
        #expect(result.stderr.contains("\(arguments[0]): invalid"))
    }

    @Test("A file the user may not read gives EACCES (run as an unprivileged user)")
    func permissionDenied() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write(Array("secret\n".utf8), name: "secret")
        chmod(path, 0o000)
        // As root, permission bits do not apply: drop to nobody for the run, from a copy of the
        // tool that nobody may execute whatever the permissions of the checkout.
        var wrapper: [String] = []
        if geteuid() == 0 {
            let copy = folder.file("lines")
            try FileManager.default.copyItem(atPath: ToolRunner.productsDirectory.appendingPathComponent("lines").path, toPath: copy)
            chmod(copy, 0o755)
            wrapper = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", copy]
        }
        let result = try ToolRunner.run("lines", [path], wrapper: wrapper)
        #expect(result.status != 0)
        #expect(result.stderr.contains("\(path): cannot open: Permission denied (errno 13)"))
    }
}
