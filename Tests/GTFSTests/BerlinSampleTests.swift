import Foundation
import GTFS
import LineReader
import TestSupport
import Testing

/// The real Berlin VBB data in SampleData/berlin.
@Suite("Berlin sample data")
struct BerlinSampleTests {
    static let root = Repository.berlin

    static func parseAll<R: GTFSRecord>(_ type: R.Type, _ path: String, options: ParseOptions = ParseOptions()) throws -> ([R], TableSummary) {
        var records: [R] = []
        let reader = try Reader(path: root.appendingPathComponent(path).path)
        let summary = try TableParser.parse(type, from: reader, fileName: (path as NSString).lastPathComponent, options: options) {
            records += $0
        }
        return (records, summary)
    }

    @Test("The 2013 stops.txt yields exactly 12,793 stops, names with commas and umlauts intact")
    func stops2013() throws {
        for path in ["vbb-2013/stops.txt", "vbb-2013/stops.txt.gz"] {
            let (stops, summary) = try Self.parseAll(Stop.self, path)
            #expect(stops.count == 12_793)
            #expect(summary.rowsRead == 12_793)
            #expect(summary.rowsRejected == 0)
            #expect(summary.warningCount == 0)
            let staaken = try #require(stops.first { $0.stopID == "9029305" })
            #expect(staaken.stopName == "Berlin, Staaken Bhf")
            #expect(staaken.latitude == 52.5377400)
            #expect(staaken.longitude == 13.1417260)
            #expect(staaken.locationType == .stop)
            #expect(stops.contains { $0.stopName == "Lübeck St Jürgen" })
            #expect(Set(stops.map(\.stopID)).count == 12_793)
        }
    }
}
