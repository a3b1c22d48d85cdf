import GTFS
import LineReader

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Parses a stop_times.txt into typed `StopTime` records and prints the row count, the rejected count and a
/// checksum (so no work can be skipped): `parse-stop-times FILE [CHUNK_SIZE]`.
@main
struct ParseStopTimes {
    static func main() {
        let arguments = CommandLine.arguments
        guard arguments.count >= 2 else {
            print("usage: parse-stop-times FILE [CHUNK_SIZE]")
            exit(2)
        }
        let chunkSize = arguments.count > 2 ? Int(arguments[2]) ?? 65536 : 65536
        do {
            var rows = 0
            var checksum = 0
            let reader = try Reader(path: arguments[1], chunkSize: chunkSize)
            let summary = try TableParser.parse(
                StopTime.self, from: reader, fileName: "stop_times.txt", options: ParseOptions(chunkSize: chunkSize)
            ) { batch in
                rows += batch.count
                // Fields are read in place: `for record in batch` would copy every record first.
                for index in batch.indices {
                    checksum &+= batch[index].stopSequence &+ Int(batch[index].arrivalTime?.seconds ?? 0)
                    checksum &+= batch[index].stopID?.utf8Count ?? 0
                }
            }
            print("rows \(rows) rejected \(summary.rowsRejected) checksum \(checksum)")
        } catch {
            print("parse-stop-times: \(error)")
            exit(1)
        }
    }
}
