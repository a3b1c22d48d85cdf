import Foundation
import Platform

/// A PostgreSQL server of the tests' own: `initdb` into a temporary folder, listening only on a Unix
/// socket in that folder, stopped and deleted by ``stop()`` (and at exit, should a test crash first).
///
/// The server binaries come from `GTFS_PG_BIN`, else Debian's `/usr/lib/postgresql/<version>/bin` (the
/// newest version there). `initdb` refuses root: run as root, the server runs as the
/// `postgres` user (through `runuser`), which owns the folder.
public final class TestServer: @unchecked Sendable {
    /// The folder holding the data directory and the socket.
    public let folder: String
    /// A libpq connection string for the server's `postgres` database as its superuser.
    public var connectionString: String { "host=\(folder) port=\(port) dbname=postgres user=postgres" }
    /// The same as a URI, as `gtfs-import --db` takes it.
    public var uri: String { "postgresql:///postgres?host=\(folder)&port=\(port)&user=postgres" }
    public let port = 54329
    private let bin: String
    private var running = false

    /// Starts a server, or throws with what `initdb` or `pg_ctl` printed.
    public init() throws {
        bin = try Self.binaries()
        folder = NSTemporaryDirectory() + "gtfs-pg-\(getpid())-\(UInt32.random(in: 0 ... .max))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        if geteuid() == 0 { try Self.run("/bin/chown", ["postgres:postgres", folder]) }
        try runAsServerUser("\(bin)/initdb", ["-D", "\(folder)/data", "-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8", "--locale=C"])
        try runAsServerUser(
            "\(bin)/pg_ctl",
            ["-D", "\(folder)/data", "-l", "\(folder)/log", "-w", "-o", "-k \(folder) -p \(port) -c listen_addresses='' -F", "start"])
        running = true
    }

    /// Stops the server at once, as a crash would, keeping its data.
    public func kill() throws {
        try runAsServerUser("\(bin)/pg_ctl", ["-D", "\(folder)/data", "-m", "immediate", "-w", "stop"])
    }

    /// Starts the server again after ``kill()``.
    public func restart() throws {
        try runAsServerUser(
            "\(bin)/pg_ctl",
            ["-D", "\(folder)/data", "-l", "\(folder)/log", "-w", "-o", "-k \(folder) -p \(port) -c listen_addresses='' -F", "start"])
    }

    /// Stops (SIGSTOP) or resumes (SIGCONT) the server's every process, as a server whose host froze.
    public func signalAll(_ signal: Int32) throws {
        let pidFile = try String(contentsOfFile: "\(folder)/data/postmaster.pid", encoding: .utf8)
        guard let first = pidFile.split(separator: "\n").first, let postmaster = Int32(first) else {
            throw TestServerError("no postmaster pid in \(folder)/data/postmaster.pid")
        }
        // The children first, so that a stopped postmaster cannot start new ones meanwhile.
        let children = Process()
        children.executableURL = URL(fileURLWithPath: "/usr/bin/pkill")
        children.arguments = ["-\(signal)", "-P", "\(postmaster)"]
        try children.run()
        children.waitUntilExit()
        Platform.kill(postmaster, signal)
    }

    /// Stops the server at once (its clients' transactions roll back) and deletes its folder.
    public func stop() {
        if running { try? runAsServerUser("\(bin)/pg_ctl", ["-D", "\(folder)/data", "-m", "immediate", "-w", "stop"]) }
        running = false
        try? FileManager.default.removeItem(atPath: folder)
    }

    deinit { stop() }

    /// Runs a server program as the server's user.
    private func runAsServerUser(_ program: String, _ arguments: [String]) throws {
        if geteuid() == 0 {
            try Self.run("/sbin/runuser", ["-u", "postgres", "--", program] + arguments)
        } else {
            try Self.run(program, arguments)
        }
    }

    /// Runs `program` and waits for it, its output in a file shown on failure. Not through Foundation's
    /// `Process`, whose end the server that pg_ctl starts in the background would hold up (the server
    /// inherits what `Process` uses to watch its child).
    private static func run(_ program: String, _ arguments: [String]) throws {
        let outputPath = NSTemporaryDirectory() + "gtfs-pg-output-\(getpid())-\(UInt32.random(in: 0 ... .max))"
        defer { unlink(outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, program, &actions, nil, argv, environ)
        guard spawned == 0 else { throw TestServerError("\(program): cannot start: \(System.message(forErrno: spawned))") }
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 && errno == EINTR {}
        // Exited normally with status 0: WIFEXITED and WEXITSTATUS, which Swift cannot call as macros.
        guard status & 0x7F == 0, (status >> 8) & 0xFF == 0 else {
            let printed = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
            throw TestServerError("\(program) \(arguments.joined(separator: " ")): wait status \(status): \(printed)")
        }
    }

    private static func binaries() throws -> String {
        if let given = ProcessInfo.processInfo.environment["GTFS_PG_BIN"] { return given }
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        for version in versions.sorted(by: >) where FileManager.default.isExecutableFile(atPath: "/usr/lib/postgresql/\(version)/bin/initdb") {
            return "/usr/lib/postgresql/\(version)/bin"
        }
        throw TestServerError("no PostgreSQL server binaries: install Debian's postgresql, or set GTFS_PG_BIN to the folder of initdb")
    }
}

public struct TestServerError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
