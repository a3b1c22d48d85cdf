import TestSupport
import GTFS
import Testing

/// An independent, obviously-correct CSV splitter over whole text, to compare the streaming parser with.
enum ReferenceCSV {
    static func records(_ text: String) -> [[String]] {
        var records: [[String]] = []
        var fields: [String] = []
        var field = ""
        var quoted = false
        var wasQuoted = false
        var atFieldStart = true
        let chars = Array(text.replacingOccurrences(of: "\r\n", with: "\n"))
        var index = 0
        func endField() {
            fields.append(wasQuoted ? field : field.trimmingCharacters(in: [" "]))
            field = ""
            wasQuoted = false
            atFieldStart = true
        }
        while index < chars.count {
            let char = chars[index]
            if quoted {
                if char == "\"" {
                    if index + 1 < chars.count && chars[index + 1] == "\"" {
                        field.append("\"")
                        index += 1
                    } else {
                        quoted = false
                    }
                } else {
                    field.append(char)
                }
            } else if char == "\"" && atFieldStart {
                quoted = true
                wasQuoted = true
                atFieldStart = false
            } else if char == "," {
                endField()
            } else if char == "\n" {
                endField()
                if !(fields.count == 1 && fields[0].isEmpty) { records.append(fields) }
                fields = []
            } else {
                field.append(char)
                atFieldStart = false
            }
            index += 1
        }
        if !field.isEmpty || !fields.isEmpty {
            endField()
            records.append(fields)
        }
        return records
    }
}

@Suite("Differential test against a reference parser")
struct DifferentialTests {
    static func randomField(_ rng: inout SeededGenerator) -> String {
        let alphabet = Array("abcxyzÄöü 0123456789")
        let length = Int.random(in: 0 ... 12, using: &rng)
        var text = String((0 ..< length).map { _ in alphabet[Int.random(in: 0 ..< alphabet.count, using: &rng)] })
        text = text.trimmingCharacters(in: [" "])
        switch Int.random(in: 0 ..< 6, using: &rng) {
        case 0: return "\"" + text + ", with comma\""
        case 1: return "\"" + text + " \"\"quoted\"\"\""
        case 2: return "\"line\n" + text + "\""
        case 3: return "  " + text + " "
        default: return text
        }
    }

    @Test("Seeded random CSV: every field equals the reference parser's", arguments: 0 ..< 25)
    func randomCSV(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        var lines = ["id,name,note"]
        for row in 0 ..< Int.random(in: 1 ... 40, using: &rng) {
            lines.append("r\(row)," + Self.randomField(&rng) + "," + Self.randomField(&rng))
            if Int.random(in: 0 ..< 8, using: &rng) == 0 { lines.append("") }
        }
        let ending = Bool.random(using: &rng) ? "\r\n" : "\n"
        let text = lines.joined(separator: ending) + (Bool.random(using: &rng) ? ending : "")
        let expected = ReferenceCSV.records(text).dropFirst()
        for chunkSize in [1, 3, 64, 4096] {
            let (records, summary) = try parseCSV(TextRecord.self, text, chunkSize: chunkSize)
            #expect(summary.rowsRejected == 0, "seed \(seed)")
            #expect(records.map(\.id) == expected.map { $0[0] }, "seed \(seed) chunk \(chunkSize)")
            #expect(records.map { $0.name ?? "" } == expected.map { $0[1] }, "seed \(seed) chunk \(chunkSize)")
            #expect(records.map { $0.note ?? "" } == expected.map { $0[2] }, "seed \(seed) chunk \(chunkSize)")
        }
    }
}
