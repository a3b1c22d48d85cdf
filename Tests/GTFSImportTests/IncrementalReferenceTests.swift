import Foundation
import GRDB
import GTFS
@testable import GTFSImport
import TestSupport
import Testing

/// An incremental import that changed only a referring table checks only its changed rows when the last
/// check was clean; its findings must still be those of a full check of the new version.
@Suite("Reference checks of incremental imports")
struct IncrementalReferenceTests {
    /// `files` with the stop of trip `trip`'s stop `sequence` set to `stop`, or its times moved when `stop` is nil.
    static func edit(_ files: [String: String], trip: Int, sequence: Int, stop: String?) -> [String: String] {
        var files = files
        let lines = files["stop_times.txt", default: ""].split(separator: "\n").map { line -> String in
            var cells = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard cells.count == 5, cells[0] == "T\(trip)", cells[4] == "\(sequence)" else { return String(line) }
            if let stop { cells[3] = stop } else { cells[1] = "23:59:00"; cells[2] = "23:59:00" }
            return cells.joined(separator: ",")
        }
        files["stop_times.txt"] = lines.joined(separator: "\n") + "\n"
        return files
    }

    /// The findings of a fresh import of `files` into a store of its own: a full check.
    static func freshFindings(_ files: [String: String], in folder: TemporaryFolder, name: String) throws -> [IntegrityFinding] {
        let store = try GTFSStore(path: folder.file("\(name)-fresh.sqlite"))
        let source = try FeedSource(path: try FeedFiles.directory(files, in: folder, name: "\(name)-fresh"))
        return try store.importFeedSynchronously(from: source).integrity.findings
    }

    @Test("Findings equal a full check's through clean, broken, fixed and unchecked versions and changed targets")
    func findingsEqualFullChecks() throws {
        let folder = try TemporaryFolder()
        let store = try GTFSStore(path: folder.file("refs.sqlite"))
        let v1 = FeedFiles.feed(stops: 20, trips: 8, stopsPerTrip: 3)
        var stopsWithoutS6 = v1
        stopsWithoutS6["stops.txt"] = v1["stops.txt", default: ""].replacingOccurrences(of: "S6,\"Stop 6, Berlin\",52.500006,13.400006\n", with: "")
        // Each version with whether its import checks references and the findings it must report.
        let versions: [(name: String, files: [String: String], checks: Bool)] = [
            ("v1", v1, true),
            // A stop that does not exist, in stop_times only: the changed rows show it.
            ("v2", Self.edit(v1, trip: 1, sequence: 2, stop: "S999"), true),
            // Another trip changes; the last check was not clean, so every row is checked: S999 stays found.
            ("v3", Self.edit(Self.edit(v1, trip: 1, sequence: 2, stop: "S999"), trip: 2, sequence: 1, stop: nil), true),
            // Fixed.
            ("v4", Self.edit(v1, trip: 2, sequence: 1, stop: nil), true),
            // Broken without a check: the next import must not trust the last clean check.
            ("v5", Self.edit(Self.edit(v1, trip: 2, sequence: 1, stop: nil), trip: 3, sequence: 3, stop: "S888"), false),
            ("v6", Self.edit(Self.edit(v1, trip: 4, sequence: 1, stop: nil), trip: 3, sequence: 3, stop: "S888"), true),
            ("v7", Self.edit(v1, trip: 4, sequence: 1, stop: nil), true),
            // A target changes (S6 removed): every stop_id is checked again.
            ("v8", Self.edit(stopsWithoutS6, trip: 5, sequence: 2, stop: nil), true),
        ]
        for version in versions {
            var options = ImportOptions()
            options.checksReferences = version.checks
            let source = try FeedSource(path: try FeedFiles.directory(version.files, in: folder, name: version.name))
            let summary = try store.importFeedSynchronously(from: source, options: options)
            guard version.checks else { continue }
            let expected = try Self.freshFindings(version.files, in: folder, name: version.name)
            #expect(summary.integrity.findings == expected, "\(version.name)")
            #expect(version.name == "v1" || version.name == "v4" || version.name == "v7" || !expected.isEmpty, "\(version.name)")
        }
    }
}
