import Foundation
import TestSupport
import Testing

/// The read-only commands on a database they cannot write next to: a folder the user may not write, a
/// full disk, a read-only mount. Reading writes nothing, so each works.
@Suite("gtfs-query and gtfs-import list: reading where nothing can be written")
struct GTFSQueryReadOnlyTests {
    /// The subset's database, made in a scratch folder.
    static func database(in folder: TemporaryFolder) throws -> String {
        let db = folder.file("made.sqlite")
        let result = try ToolRunner.run("gtfs-import", ["--db", db, "--quiet", GTFSImportToolTests.subset])
        #expect(result.status == 0, "\(result.stderr)")
        return db
    }

    /// Runs the read-only commands on `db` (through `wrapper`, with `tools` as the executables' folder) and
    /// checks their answers.
    static func expectReadable(_ db: String, wrapper: (String) -> [String] = { _ in [] }, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let stops = try ToolRunner.run("gtfs-query", ["stops", "--db", db, "--name", "Alexanderplatz"], wrapper: wrapper("gtfs-query"))
        #expect(stops.status == 0, "\(stops.stderr)", sourceLocation: sourceLocation)
        #expect(stops.stdoutText.contains("U Alexanderplatz (Berlin) [Tram]"), sourceLocation: sourceLocation)
        let list = try ToolRunner.run("gtfs-import", ["list", "--db", db], wrapper: wrapper("gtfs-import"))
        #expect(list.status == 0, "\(list.stderr)", sourceLocation: sourceLocation)
        #expect(list.stdoutText.contains("default  23,418"), "\(list.stdoutText)", sourceLocation: sourceLocation)
    }

    @Test("A folder the user cannot write, with and without the WAL's files that another user left",
          .enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"), "needs root and setpriv"))
    func unwritableFolder() throws {
        let folder = try TemporaryFolder()
        let db = try Self.database(in: folder)
        chmod(folder.path, 0o755)
        chmod(db, 0o644)
        for tool in ["gtfs-query", "gtfs-import"] {
            try FileManager.default.copyItem(atPath: ToolRunner.productsDirectory.appendingPathComponent(tool).path, toPath: folder.file(tool))
            chmod(folder.file(tool), 0o755)
        }
        let asNobody = { (tool: String) in ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", folder.file(tool)] }
        try Self.expectReadable(db, wrapper: asNobody)
        // The owner read it first: its -wal and -shm files exist, and only the owner may write them.
        try Self.expectReadable(db)
        try Self.expectReadable(db, wrapper: asNobody)
    }

    @Test("A full disk", .enabled(if: Tmpfs.canMount, "needs root to mount a tmpfs"))
    func fullDisk() throws {
        let folder = try TemporaryFolder()
        let made = try Self.database(in: folder)
        let disk = try Tmpfs(kilobytes: 8 << 10)
        let db = disk.file("gtfs.sqlite")
        try FileManager.default.copyItem(atPath: made, toPath: db)
        disk.fill()
        #expect(disk.freeBytes == 0)
        try Self.expectReadable(db)
    }

    @Test("A read-only mount", .enabled(if: Tmpfs.canMount, "needs root to mount a tmpfs"))
    func readOnlyMount() throws {
        let folder = try TemporaryFolder()
        let made = try Self.database(in: folder)
        let disk = try Tmpfs(kilobytes: 8 << 10)
        let db = disk.file("gtfs.sqlite")
        try FileManager.default.copyItem(atPath: made, toPath: db)
        try disk.remountReadOnly()
        try Self.expectReadable(db)
        // Importing there fails with a clear line and changes nothing.
        let write = try ToolRunner.run("gtfs-import", ["--db", db, GTFSImportToolTests.stops2013])
        #expect(write.status == 1)
        #expect(write.stderr.hasSuffix("; nothing was imported\n"), "\(write.stderr)")
    }
}
