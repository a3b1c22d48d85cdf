import Foundation
import GTFS
import TestSupport
import Testing

@Suite("GTFSID: identifiers held inline up to 23 bytes")
struct GTFSIDTests {
    /// The ids a feed may hold: empty, short, VBB-long, at the inline limit, one past it, long, non-ASCII.
    static let texts = [
        "", "1", "171000042", "de:12054:900157843::9", "de:11000:900120005:1:50", "abcdefghijklmnopqrstuvw",
        "abcdefghijklmnopqrstuvwx", "de:11000:900120005:1:50:some-much-longer-suffix", "Lübeck St Jürgen", "Zürich HB 🚆",
        "ÄÖÜäöüßÄÖÜäöü",
    ]

    @Test("Text, length and bytes survive the round trip, from a String and from bytes")
    func roundTrip() {
        for text in Self.texts {
            let fromString = GTFSID(text)
            let fromBytes = Array(text.utf8).withUnsafeBytes { GTFSID(utf8: $0) }
            #expect(fromString.description == text)
            #expect(fromBytes.description == text)
            #expect(String(fromBytes) == text)
            #expect(fromString.utf8Count == text.utf8.count)
            #expect(fromString.isEmpty == text.isEmpty)
            #expect(fromString.withUTF8 { Array($0) } == Array(text.utf8))
            #expect(fromString == fromBytes, "\(text)")
            #expect(fromString.hashValue == fromBytes.hashValue, "\(text)")
        }
    }

    @Test("23 bytes stay inline and 24 do not, and the two spellings of one text never differ")
    func inlineLimit() {
        #expect(GTFSID.inlineCapacity == 23)
        // Three words, optional or not: the length byte's unused values hold the enum's tag.
        #expect(MemoryLayout<GTFSID>.size == 24)
        #expect(MemoryLayout<GTFSID?>.size == 24)
        let longest = String(repeating: "x", count: 23)
        let tooLong = String(repeating: "x", count: 24)
        #expect(GTFSID(longest).utf8Count == 23)
        #expect(GTFSID(tooLong).utf8Count == 24)
        #expect(GTFSID(longest) != GTFSID(tooLong))
        #expect(GTFSID(tooLong) == GTFSID(String(repeating: "x", count: 24)))
        // A 23-byte text of two-byte characters that only fits once decoded as UTF-8.
        let umlauts = "äöüäöüäöüäö" + "x"  // 23 bytes
        #expect(umlauts.utf8.count == 23)
        #expect(Array(umlauts.utf8).withUnsafeBytes { GTFSID(utf8: $0) } == GTFSID(umlauts))
    }

    @Test("Invalid UTF-8 is repaired as String(decoding:) repairs it")
    func invalidUTF8() {
        let bytes: [UInt8] = [0x41, 0xFF, 0x42, 0xC3]
        let id = bytes.withUnsafeBytes { GTFSID(utf8: $0) }
        #expect(id.description == String(decoding: bytes, as: UTF8.self))
        #expect(id == GTFSID(String(decoding: bytes, as: UTF8.self)))
    }

    @Test("Equality, hashing and byte order agree with the texts on seeded random ids")
    func agreesWithString() {
        var generator = SeededGenerator(seed: 20_251_121)
        let alphabet = Array("abc:19Zü")
        let ids = (0 ..< 400).map { _ in
            String((0 ..< Int.random(in: 0 ... 30, using: &generator)).map { _ in alphabet.randomElement(using: &generator) ?? "a" })
        }
        for left in ids.prefix(60) {
            for right in ids {
                let a = GTFSID(left)
                let b = GTFSID(right)
                #expect((a == b) == (left == right))
                #expect((a < b) == left.utf8.lexicographicallyPrecedes(right.utf8), "\(left) < \(right)")
            }
        }
        let distinct = Set(ids.map { GTFSID($0) })
        #expect(distinct.count == Set(ids).count)
    }

    @Test("Literals, optionals and Codable read like text")
    func literalsAndCodable() throws {
        let id: GTFSID = "de:11000:900100001::4"
        let optional: GTFSID? = id
        #expect(optional == "de:11000:900100001::4")
        #expect("\(id)" == "de:11000:900100001::4")
        let data = try JSONEncoder().encode([id, GTFSID(String(repeating: "y", count: 40))])
        #expect(String(decoding: data, as: UTF8.self) == "[\"de:11000:900100001::4\",\"\(String(repeating: "y", count: 40))\"]")
        #expect(try JSONDecoder().decode([GTFSID].self, from: data) == [id, GTFSID(String(repeating: "y", count: 40))])
    }
}
