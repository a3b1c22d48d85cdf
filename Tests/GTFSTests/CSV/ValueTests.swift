import Foundation
import GTFS
import TestSupport
import Testing

/// A record with one column of each value type, to test the typed accessors.
struct ValueRecord: GTFSRecord {
    static let file = GTFSFile.levels
    enum Field: Int, GTFSField {
        case id, time, date, color, lat, lon, count, amount, kind
        var spec: FieldSpec {
            switch self {
            case .id: FieldSpec("id", .text, .required)
            case .time: FieldSpec("time", .time)
            case .date: FieldSpec("date", .date)
            case .color: FieldSpec("color", .color)
            case .lat: FieldSpec("lat", .decimal)
            case .lon: FieldSpec("lon", .decimal)
            case .count: FieldSpec("count", .integer)
            case .amount: FieldSpec("amount", .currencyAmount)
            case .kind: FieldSpec("kind", .enumeration)
            }
        }
        static let key: [Field] = [.id]
    }
    var time: GTFSTime?
    var date: GTFSDate?
    var color: GTFSColor?
    var lat: Double?
    var lon: Double?
    var count: Int?
    var amount: CurrencyAmount?
    var kind: LocationType?

    init(row: CSVRow<Field>) throws {
        _ = try row.requiredText(.id)
        time = try row.time(.time)
        date = try row.date(.date)
        color = try row.color(.color)
        lat = try row.latitude(.lat)
        lon = try row.longitude(.lon)
        count = try row.nonNegativeInt(.count)
        amount = try row.currencyAmount(.amount)
        kind = try row.enumeration(.kind)
    }

    func write<Sink: FieldSink>(to sink: inout Sink) {
        sink.writeNull()
        sink.write(time)
        sink.write(date)
        sink.write(color.map(\.description))
        sink.write(lat)
        sink.write(lon)
        sink.write(count)
        sink.write(amount.map(\.description))
        sink.write(kind)
    }
}

@Suite("Field values")
struct ValueTests {
    static let header = "id,time,date,color,lat,lon,count,amount,kind\n"

    static func one(_ row: String) throws -> (ValueRecord?, TableSummary) {
        let (records, summary) = try parseCSV(ValueRecord.self, header + row + "\n", fileName: "v.txt")
        return (records.first, summary)
    }

    @Test("Times: H:MM:SS and HH:MM:SS, hours past 24 (86:52:00 is real)")
    func times() throws {
        #expect(try Self.one("1,7:05:09").0?.time == GTFSTime(seconds: 7 * 3600 + 5 * 60 + 9))
        #expect(try Self.one("1,86:52:00").0?.time?.seconds == 86 * 3600 + 52 * 60)
        #expect(GTFSTime("25:03:00")?.description == "25:03:00")
        for bad in ["7:5:09", "07:60:00", "07:00", "aa:00:00", "-1:00:00"] {
            let (record, summary) = try Self.one("1,\(bad)")
            #expect(record == nil)
            #expect(summary.errors.first?.description == "v.txt:2: time: \"\(bad)\" is not a time (H:MM:SS)")
        }
    }

    @Test("HH:MM:SS, read eight bytes at a time, agrees with a plain reading on seeded random text")
    func eightByteTimes() throws {
        /// The plain reading: digits, colons at 2 and 5, minutes and seconds below 60.
        func reference(_ text: [UInt8]) -> Int32? {
            guard text.count == 8, text[2] == 0x3A, text[5] == 0x3A else { return nil }
            var digits: [Int] = []
            for index in [0, 1, 3, 4, 6, 7] {
                guard (0x30 ... 0x39).contains(text[index]) else { return nil }
                digits.append(Int(text[index]) - 0x30)
            }
            guard digits[2] <= 5, digits[4] <= 5 else { return nil }
            return Int32((digits[0] * 10 + digits[1]) * 3600 + (digits[2] * 10 + digits[3]) * 60 + digits[4] * 10 + digits[5])
        }
        var generator = SeededGenerator(seed: 8)
        // Digits, the bytes either side of the digit range, colons and their neighbours, letters, high bytes.
        let alphabet: [UInt8] = Array("0123456789:/;59 a".utf8) + [0xC3, 0xFF, 0x00]
        var parsed = 0
        for round in 0 ..< 20000 {
            var text = Array("12:34:56".utf8)
            // Change one to three bytes of a valid time, so that most texts are near misses.
            for _ in 0 ..< 1 + round % 3 {
                text[Int.random(in: 0 ..< 8, using: &generator)] = alphabet[Int.random(in: 0 ..< alphabet.count, using: &generator)]
            }
            let string = String(decoding: text, as: UTF8.self)
            guard string.utf8.count == 8 else { continue }  // a high byte was repaired: not eight bytes any more
            let expected = reference(text)
            #expect(GTFSTime(string)?.seconds == expected, "\(string)")
            if expected != nil { parsed += 1 }
        }
        #expect(parsed > 1000)
        #expect(GTFSTime("99:59:59") == GTFSTime(hours: 99, minutes: 59, seconds: 59))
        #expect(GTFSTime("00:00:00") == GTFSTime(seconds: 0))
    }

    @Test("Dates are validated: 20250231 is not a date, 20240229 is")
    func dates() throws {
        #expect(try Self.one("1,,20240229").0?.date == GTFSDate(year: 2024, month: 2, day: 29))
        for bad in ["20250231", "20230229", "2025011", "20251301", "2025-01-01"] {
            let (record, summary) = try Self.one("1,,\(bad)")
            #expect(record == nil)
            #expect(summary.errors.first?.column == "date")
            #expect(summary.errors.first?.text == bad)
        }
        #expect(GTFSDate("20251231")?.integerValue == 20_251_231)
    }

    @Test("Dates count days from 1970 both ways, know their weekday, and step across months, years and leap days")
    func dateArithmetic() throws {
        let epoch = try #require(GTFSDate(integerValue: 19700101))
        #expect(epoch.daysSince1970 == 0 && epoch.weekday == 4)
        let leap = try #require(GTFSDate(integerValue: 20240229))
        #expect(leap.daysSince1970 == 19_782 && leap.weekday == 4)
        #expect(leap.adding(days: 1) == GTFSDate(integerValue: 20240301))
        #expect(GTFSDate(integerValue: 20251231)?.adding(days: 1) == GTFSDate(integerValue: 20260101))
        #expect(GTFSDate(integerValue: 20250330)?.weekday == 7)
        #expect(GTFSDate(integerValue: 19691231)?.daysSince1970 == -1)
        // Every day of 1600 to 2400 maps to its number and back, each a day after the last.
        var days = try #require(GTFSDate(integerValue: 16000101)).daysSince1970
        var date = try #require(GTFSDate(daysSince1970: days))
        while date.year < 2400 {
            let next = try #require(date.adding(days: 1))
            #expect(next.daysSince1970 == days + 1 && next > date)
            #expect(next.weekday == date.weekday % 7 + 1)
            days += 1
            date = next
        }
        #expect(GTFSDate(integerValue: 20250231) == nil && GTFSDate(integerValue: 0) == nil && GTFSDate(integerValue: -5) == nil)
        #expect(GTFSDate(daysSince1970: Int.max) == nil && GTFSDate(daysSince1970: Int.min) == nil)
        #expect(GTFSDate(integerValue: 99991231)?.adding(days: 1) == nil && leap.adding(days: Int.max) == nil)
    }

    @Test("Colors are six hex digits")
    func colors() throws {
        #expect(try Self.one("1,,,ffd800").0?.color == GTFSColor(rgb: 0xFFD800))
        #expect(GTFSColor(rgb: 0x00A0E0).description == "00A0E0")
        #expect(try Self.one("1,,,#FFD800").0 == nil)
        #expect(try Self.one("1,,,FFF").0 == nil)
    }

    @Test("Coordinates are decimals in range; a decimal comma is an error")
    func coordinates() throws {
        let record = try Self.one("1,,,,52.5377400,13.1417260").0
        #expect(record?.lat == 52.53774 && record?.lon == 13.141726)
        let (none, summary) = try Self.one("1,,,,\"52,53\",13.4")
        #expect(none == nil)
        #expect(summary.errors.first?.description == "v.txt:2: lat: \"52,53\" is not a decimal number")
        #expect(try Self.one("1,,,,91,0").0 == nil)
        #expect(try Self.one("1,,,,0,-180.5").0 == nil)
        #expect(try Self.one("1,,,,-33.8688,151.2093").0?.lon == 151.2093)
        #expect(try Self.one("1,,,,1e1,0").0?.lat == 10)
        #expect(try Self.one("1,,,,nan,0").0 == nil)
    }

    @Test("Decimal parsing matches the standard library on many values")
    func decimalsMatchStandardLibrary() throws {
        var rng = SystemRandomNumberGenerator()
        for _ in 0 ..< 2000 {
            let value = Double.random(in: -90 ... 90, using: &rng)
            let text = String(format: "%.\(Int.random(in: 0 ... 12, using: &rng))f", value)
            let parsed = try Self.one("1,,,,\(text),0").0?.lat
            #expect(parsed == Double(text), "\(text)")
        }
    }

    @Test("Integers, currency amounts, unknown enum values")
    func numbersAndEnums() throws {
        #expect(try Self.one("1,,,,,,42").0?.count == 42)
        #expect(try Self.one("1,,,,,,-1").0 == nil)
        #expect(try Self.one("1,,,,,,4x").0 == nil)
        #expect(try Self.one("1,,,,,,,-1.50").0?.amount == CurrencyAmount(units: -150, scale: 2))
        #expect(CurrencyAmount("2.5")?.description == "2.5")
        #expect(try Self.one("1,,,,,,,,1").0?.kind == .station)
        #expect(try Self.one("1,,,,,,,,9").0?.kind == .unknown(9))
        #expect(LocationType.unknown(9).code == 9)
        #expect(try Self.one("1,,,,,,,,x").0 == nil)
    }

    @Test("Empty cells read as nil; a missing required value is an error")
    func emptyCells() throws {
        let record = try Self.one("1,,,,,,,,").0
        #expect(record?.time == nil && record?.kind == nil && record?.amount == nil)
        let (none, summary) = try Self.one(",07:00:00")
        #expect(none == nil)
        #expect(summary.errors.first?.description == "v.txt:2: id: is required")
    }
}

extension ValueRecord: Equatable {}
