import Foundation
import GRDB
import TestSupport
import Testing

/// `--changes FILE` where FILE is not a plain new file: a link, a device, a FIFO, standard output, a full
/// disk. What FILE is stays what it is, and the import commits only with its change list complete.
@Suite("gtfs-import: --changes into links, devices, FIFOs and full disks")
struct GTFSImportChangesTargetTests {
    /// A database holding the subset's 634 stops, and the 2013 stops (12,793) to import over them: some
    /// 13,000 changes, about 1 MB of lines.
    typealias Setup = GTFSImportHostileInputTests.Setup
    static let subsetStops = GTFSImportToolTests.subset + "/stops.txt"

    /// Imports the 2013 stops with `--changes path`.
    static func importStops(_ setup: Setup, changes path: String) throws -> ToolRunner.Output {
        try ToolRunner.run("gtfs-import", ["--db", setup.db, "--quiet", "--changes", path, GTFSImportToolTests.stops2013])
    }

    static func stops(_ setup: Setup) throws -> Int { try GTFSImportToolTests.counts(setup.db)[.stops] ?? 0 }

    /// The lines of a complete change list: the last one says it is complete.
    static func isCompleteList(_ text: String) -> Bool {
        let lines = text.split(separator: "\n")
        return lines.count > 12_000 && lines.last?.hasSuffix("\"complete\":true}") == true
    }

    @Test("A symbolic link to a file: the target gets the changes, the link stays a link")
    func linkToFile() throws {
        let setup = try Setup(importing: Self.subsetStops)
        let target = try setup.folder.write("old\n", name: "target.jsonl")
        let link = setup.folder.file("link.jsonl")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "target.jsonl")
        let result = try Self.importStops(setup, changes: link)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "target.jsonl")
        #expect(Self.isCompleteList(try String(contentsOfFile: target, encoding: .utf8)))
        #expect(try Self.stops(setup) == 12_793)
        // Nothing else was left in the folder.
        let names = try FileManager.default.contentsOfDirectory(atPath: setup.folder.path).filter { $0.contains("partial") }
        #expect(names.isEmpty, "\(names)")
    }

    @Test("A dangling symbolic link: the file is created at its target")
    func danglingLink() throws {
        let setup = try Setup(importing: Self.subsetStops)
        let link = setup.folder.file("link.jsonl")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "created.jsonl")
        let result = try Self.importStops(setup, changes: link)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "created.jsonl")
        #expect(Self.isCompleteList(try String(contentsOfFile: setup.folder.file("created.jsonl"), encoding: .utf8)))
    }

    @Test("A FIFO: the changes are streamed into it, and it stays a FIFO")
    func fifo() throws {
        let setup = try Setup(importing: Self.subsetStops)
        let fifo = setup.folder.file("changes.fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        let received = Received()
        let reader = Thread {
            guard let handle = FileHandle(forReadingAtPath: fifo) else { return }
            received.set((try? handle.readToEnd()) ?? Data())
        }
        reader.start()
        let result = try Self.importStops(setup, changes: fifo)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(received.wait(timeout: .seconds(30)).map { Self.isCompleteList(String(decoding: $0, as: UTF8.self)) } == true)
        var status = stat()
        #expect(stat(fifo, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO)
    }

    @Test("A symbolic link to standard output: the changes are on standard output, the link stays")
    func linkToStandardOutput() throws {
        let setup = try Setup(importing: Self.subsetStops)
        let link = setup.folder.file("out.jsonl")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/stdout")
        let result = try Self.importStops(setup, changes: link)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Self.isCompleteList(result.stdoutText))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "/dev/stdout")
    }

    @Test("Standard output a socket: --changes /dev/stdout writes through it instead of opening it again")
    func socketStandardOutput() throws {
        let setup = try Setup(importing: Self.subsetStops)
        var ends: [Int32] = [0, 0]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
        let reading = FileHandle(fileDescriptor: ends[0], closeOnDealloc: true)
        let process = Process()
        process.executableURL = ToolRunner.productsDirectory.appendingPathComponent("gtfs-import")
        process.arguments = ["--db", setup.db, "--quiet", "--changes", "/dev/stdout", GTFSImportToolTests.stops2013]
        // Closed below once the tool has it; a handle that closed it again when freed could close a
        // descriptor another test has opened since under the same number.
        process.standardOutput = FileHandle(fileDescriptor: ends[1], closeOnDealloc: false)
        process.standardError = FileHandle.nullDevice
        let received = Received()
        let reader = Thread { received.set(reading.readDataToEndOfFile()) }
        try process.run()
        close(ends[1])
        reader.start()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(received.wait(timeout: .seconds(30)).map { Self.isCompleteList(String(decoding: $0, as: UTF8.self)) } == true)
    }

    @Test("The list cannot take its name after the commit: status 4, the summary printed, the list kept aside")
    func renameFails() throws {
        let setup = try Setup(importing: Self.subsetStops)
        let path = setup.folder.file("changes.jsonl")
        let running = try ToolRunner.start("gtfs-import", ["--db", setup.db, "--json", "--changes", path, GTFSImportToolTests.stops2013])
        // The list is opened under its temporary name before the import starts: a directory then takes its
        // name, which the rename cannot replace.
        let deadline = ContinuousClock.now + .seconds(30)
        var partial: String?
        while partial == nil && ContinuousClock.now < deadline {
            partial = try FileManager.default.contentsOfDirectory(atPath: setup.folder.path).first { $0.hasPrefix("changes.jsonl.partial-") }
        }
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        try running.closeInput()
        let result = running.wait()
        #expect(result.status == 4, "\(result.stderr)")
        let name = try #require(partial)
        #expect(result.stderr.contains("was imported, but --changes: cannot rename \(setup.folder.file(name)) to \(path)"), "\(result.stderr)")
        #expect(try (JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])?["exitStatus"] as? Int == 4)
        #expect(Self.isCompleteList(try String(contentsOfFile: setup.folder.file(name), encoding: .utf8)))
        #expect(try Self.stops(setup) == 12_793)
    }

    @Test("A character device: written in place and left a device; a device that is full fails the import",
          .enabled(if: getuid() == 0 && FileManager.default.fileExists(atPath: "/dev/full"), "mknod needs root, and a system with /dev/full"))
    func devices() throws {
        let setup = try Setup(importing: Self.subsetStops)
        // Devices of its own in the test's folder, with the numbers of the system's null and full devices.
        let null = setup.folder.file("null")
        let full = setup.folder.file("full")
        for (copy, original) in [(null, "/dev/null"), (full, "/dev/full")] {
            var status = stat()
            try #require(stat(original, &status) == 0, "\(original) is missing")
            #expect(mknod(copy, S_IFCHR | 0o666, status.st_rdev) == 0)
        }
        let failed = try Self.importStops(setup, changes: full)
        #expect(failed.status == 1)
        #expect(failed.stderr.contains("cannot write the changes to \(full): No space left on device; nothing was imported"), "\(failed.stderr)")
        try setup.expectUnchanged()
        let result = try Self.importStops(setup, changes: null)
        #expect(result.status == 0, "\(result.stderr)")
        for device in [null, full] {
            var status = stat()
            #expect(stat(device, &status) == 0 && status.st_mode & S_IFMT == S_IFCHR, "\(device) is no longer a device")
        }
        #expect(try Self.stops(setup) == 12_793)
    }

    @Test("A disk that fills up while the changes are written: exit 1, the database unchanged, no file left",
          .enabled(if: Tmpfs.canMount, "needs root to mount a tmpfs"))
    func fullDisk() throws {
        let setup = try Setup(importing: Self.subsetStops)
        let disk = try Tmpfs(kilobytes: 256)
        let path = disk.file("changes.jsonl")
        let result = try Self.importStops(setup, changes: path)
        #expect(result.status == 1)
        #expect(result.stderr.contains("No space left on device; nothing was imported"), "\(result.stderr)")
        try setup.expectUnchanged()
        #expect(try FileManager.default.contentsOfDirectory(atPath: disk.path).isEmpty)
    }
}

/// Bytes a reader thread hands over once.
private final class Received: @unchecked Sendable {
    private let lock = NSLock()
    private var data: Data?
    private let done = DispatchSemaphore(value: 0)

    func set(_ data: Data) {
        lock.withLock { self.data = data }
        done.signal()
    }

    func wait(timeout: Duration) -> Data? {
        guard done.wait(timeout: .now() + .milliseconds(Int(timeout.components.seconds * 1000))) == .success else { return nil }
        return lock.withLock { data }
    }
}
