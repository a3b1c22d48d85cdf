import GTFS
import LineReader
import TestSupport
import Testing

/// `stop_times.txt`: every field, the conditionally required ones, the out-of-line flex fields, and ids of
/// every length read from a line (where they are loaded in whole words).
@Suite("StopTime records")
struct StopTimeRecordTests {
    static let header =
        "trip_id,arrival_time,departure_time,stop_id,location_group_id,location_id,stop_sequence,stop_headsign,"
        + "start_pickup_drop_off_window,end_pickup_drop_off_window,pickup_type,drop_off_type,continuous_pickup,"
        + "continuous_drop_off,shape_dist_traveled,timepoint,pickup_booking_rule_id,drop_off_booking_rule_id\n"

    static func parse(_ csv: String) throws -> ([StopTime], TableSummary) {
        var records: [StopTime] = []
        let reader = try Reader(bytes: Array(csv.utf8))
        let summary = try TableParser.parse(StopTime.self, from: reader, fileName: "stop_times.txt") { records += $0 }
        return (records, summary)
    }

    @Test("Every field is read, and a timetable row leaves the flex fields empty")
    func everyField() throws {
        let (records, summary) = try Self.parse(
            Self.header
                + "T1,25:03:00,25:04:30,de:12054:900157843::9,,,3,Zoo,,,1,2,0,3,12.5,0,,\n"
                + "T2,,,,LG1,L1,1,,08:00:00,09:30:00,2,2,,,,,BR1,BR2\n")
        #expect(summary.rowsRejected == 0)
        try #require(records.count == 2)
        let plain = records[0]
        #expect(plain.tripID == "T1")
        #expect(plain.arrivalTime == GTFSTime(hours: 25, minutes: 3, seconds: 0))
        #expect(plain.departureTime == GTFSTime(hours: 25, minutes: 4, seconds: 30))
        #expect(plain.stopID == "de:12054:900157843::9")
        #expect(plain.stopSequence == 3)
        #expect(plain.stopHeadsign == "Zoo")
        #expect(plain.pickupType == .notAvailable && plain.dropOffType == .phoneAgency)
        #expect(plain.continuousPickup == .continuous && plain.continuousDropOff == .coordinateWithDriver)
        #expect(plain.shapeDistTraveled == 12.5)
        #expect(plain.timepoint == .approximate)
        #expect(plain.locationGroupID == nil && plain.locationID == nil)
        #expect(plain.startPickupDropOffWindow == nil && plain.endPickupDropOffWindow == nil)
        #expect(plain.pickupBookingRuleID == nil && plain.dropOffBookingRuleID == nil)

        let flex = records[1]
        #expect(flex.stopID == nil)
        #expect(flex.locationGroupID == "LG1" && flex.locationID == "L1")
        #expect(flex.startPickupDropOffWindow == GTFSTime(hours: 8, minutes: 0, seconds: 0))
        #expect(flex.endPickupDropOffWindow == GTFSTime(hours: 9, minutes: 30, seconds: 0))
        #expect(flex.pickupBookingRuleID == "BR1" && flex.dropOffBookingRuleID == "BR2")
        #expect(flex.arrivalTime == nil && flex.departureTime == nil)
    }

    @Test("Setting the flex fields changes one record only, and clearing them makes it equal again")
    func flexFieldsAreValues() throws {
        let (records, _) = try Self.parse(Self.header + "T1,08:00:00,08:00:00,S1,,,1,,,,,,,,,,,\n")
        let original = try #require(records.first)
        var changed = original
        changed.locationGroupID = "LG9"
        changed.continuousPickup = ContinuousStopping.notContinuous
        var copy = changed
        copy.pickupBookingRuleID = "BR"
        #expect(changed.locationGroupID == "LG9" && changed.continuousPickup == ContinuousStopping.notContinuous)
        #expect(changed.pickupBookingRuleID == nil)
        #expect(copy.pickupBookingRuleID == "BR" && copy.locationGroupID == "LG9")
        #expect(original.locationGroupID == nil)
        #expect(changed != original && copy != changed)
        changed.locationGroupID = nil
        changed.continuousPickup = nil
        #expect(changed == original)
        #expect(changed.hashValue == original.hashValue)
        #expect(Set([changed, original, copy]).count == 2)
    }

    @Test("The conditionally required fields follow the reference")
    func rules() throws {
        let (records, summary) = try Self.parse(
            Self.header
                + "T1,08:00:00,08:00:00,,,,1,,,,,,,,,,,\n"  // no stop, group or location
                + "T1,08:00:00,08:00:00,,LG1,,2,,08:00:00,09:00:00,,,,,,,,\n"  // times and a window
                + "T1,,08:00:00,S1,,,3,,,,,,,,,1,,\n"  // a timepoint without its arrival
                + "T1,,,S1,,,4,,,,,,,,,0,,\n"  // an approximate stop may leave times empty
                + "T1,,,S1,,,5,,,,,,,,,,,\n")  // so may a row with an empty timepoint
        #expect(records.map(\.stopSequence) == [4, 5])
        #expect(summary.rowsRead == 5 && summary.rowsRejected == 3)
        #expect(
            summary.errors.map(\.description) == [
                "stop_times.txt:2: stop_id: is required when location_group_id and location_id are empty",
                "stop_times.txt:3: arrival_time: \"08:00:00\" is forbidden when a pickup/drop-off window is given",
                "stop_times.txt:4: arrival_time: is required on a timepoint (timepoint 1)",
            ])
    }

    @Test("Ids of every length, ASCII or not, read the same at the end of a line and inside it")
    func idsOfEveryLength() throws {
        var generator = SeededGenerator(seed: 23)
        let alphabet = Array("abcXYZ019:-_ äöü🚆")
        var texts: [String] = []
        for length in 1 ... 40 {
            texts.append(String((0 ..< length).map { _ in alphabet[Int.random(in: 0 ..< 12, using: &generator)] }))
            // Spaces only inside, since unquoted cells are trimmed.
            let inner = (0 ..< length).map { _ in alphabet[Int.random(in: 0 ..< alphabet.count, using: &generator)] }
            texts.append("s" + String(inner) + "e")
        }
        // The stop id ends the line (its word loads read past the line into the padding); the trip id does not.
        var csv = "trip_id,stop_sequence,stop_id\n"
        for (index, text) in texts.enumerated() { csv += "\(text),\(index),\(text)\n" }
        let (records, summary) = try Self.parse(csv)
        #expect(summary.rowsRejected == 0)
        try #require(records.count == texts.count)
        for (record, text) in zip(records, texts) {
            #expect(record.tripID == GTFSID(text), "\(text)")
            #expect(record.stopID == GTFSID(text), "\(text)")
            #expect(record.stopID?.description == text)
            #expect(record.stopID?.utf8Count == text.utf8.count)
        }
    }
}
