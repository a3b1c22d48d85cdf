import Foundation
@testable import GTFSPostgres
import TestSupport
import Testing

/// No message shows a password, whatever form the connection string takes and however libpq fails to read
/// it; libpq's `key=value` form works as `--db`.
@Suite("PostgreSQL store: passwords never in messages")
struct PostgresSecretsTests {
    /// Strings whose password libpq quotes in its errors, or that libpq reads otherwise than meant.
    static let strings = [
        "postgresql://me:S3cretPW@[bad/gtfs",
        "postgresql://me:S3cret%ZZPW@localhost/gtfs",
        "postgresql://host=localhost password=S3cretPW dbname=x",
        "host=/nonexistent password=S3cretPW user=me dbname=x",
        "host=/nonexistent password='S3cretPW' user=me",
        "postgresql://me@/gtfs?password=S3cretPW&host=/nonexistent",
        "postgresql://me:S3cret%40PW@[bad",
        "host=/nonexistent password = S3cretPW dbname=x",
        "client_encoding=UTF8 host=/nonexistent sslpassword=S3cretPW",
    ]

    @Test("ConnectionSecrets finds the passwords as written and decoded, and redacts them")
    func secrets() {
        #expect(ConnectionSecrets("postgresql://me:p%40ss@host/db").passwords.sorted() == ["p%40ss", "p@ss"])
        #expect(ConnectionSecrets("postgresql://me@host/db?sslmode=require&password=pw1").passwords == ["pw1"])
        #expect(ConnectionSecrets("host=h password='a b' user=u").passwords == ["a b"])
        #expect(ConnectionSecrets("postgresql://me@host/db").passwords.isEmpty)
        #expect(ConnectionSecrets("postgresql://me:S3cret%ZZPW@h").redact("token: \"S3cret%ZZPW\"") == "token: \"***\"")
        // Spaces around =, escapes, sslpassword.
        #expect(ConnectionSecrets("host=h password = S3cretPW user=u").passwords == ["S3cretPW"])
        #expect(Set(ConnectionSecrets("password='it\\'s me'").passwords) == ["it\\'s me", "it's me"])
        #expect(ConnectionSecrets("sslpassword=KeyPass1 host=h").passwords == ["KeyPass1"])
        // A short password is redacted only where it stands alone, not in every word that holds it.
        let short = ConnectionSecrets("postgresql://me:ab@h/db")
        #expect(short.redact("password \"ab\" for user me at table tab") == "password \"***\" for user me at table tab")
    }

    @Test("gtfs-import, list and remove: one line, no password", arguments: strings)
    func tools(_ connection: String) throws {
        let folder = try TemporaryFolder()
        let feed = try folder.write("stop_id,stop_name,stop_lat,stop_lon\nA,Alpha,52.5,13.4\n", name: "stops.txt")
        for arguments in [["--db", connection, feed], ["list", "--db", connection], ["remove", "x", "--db", connection]] {
            let result = try ToolRunner.run("gtfs-import", arguments, directory: folder.path)
            #expect(result.status == 1, "\(arguments): \(result.stderr)")
            #expect(!result.stderr.contains("S3cret") && !result.stdoutText.contains("S3cret"), "\(result.stderr)")
            #expect(result.stderr.hasPrefix("gtfs-import: ") && result.stderr.filter { $0 == "\n" }.count == 1, "\(result.stderr)")
        }
        // Nothing was made in place of a server: no file of that name.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["stops.txt"])
    }

    @Test("libpq's key=value form imports, lists and removes like a URI")
    func keywordForm() throws {
        let server = try TestServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let feed = try folder.write("stop_id,stop_name,stop_lat,stop_lon\nA,Alpha,52.5,13.4\n", name: "stops.txt")
        let imported = try ToolRunner.run("gtfs-import", ["--db", server.connectionString, "--quiet", "--no-postgis", "--feed", "kv", feed])
        #expect(imported.status == 0, "\(imported.stderr)")
        let list = try ToolRunner.run("gtfs-import", ["list", "--db", server.connectionString])
        #expect(list.status == 0 && list.stdoutText.contains("kv "), "\(list.stderr)")
        let removed = try ToolRunner.run("gtfs-import", ["remove", "kv", "--db", server.connectionString])
        #expect(removed.status == 0, "\(removed.stderr)")
    }
}
