import ArgumentParser
import GTFS
import GTFSImport
import GTFSPostgres
import ToolSupport

/// `gtfs-import remove NAME`: deletes one feed's rows, in one transaction.
struct RemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove", abstract: "Remove a feed: exactly its rows, in one transaction (its import history stays).")

    @Argument(help: "The feed's name, as `gtfs-import list` shows it.")
    var name: String

    @Option(name: .long, help: "The database file, or a PostgreSQL server: postgresql://[user@]host/database.")
    var db = "gtfs.sqlite"

    @Option(name: .long, help: ArgumentHelp("The PostgreSQL schema of the tables, with --db postgresql://….", valueName: "NAME"))
    var schema = "gtfs"

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Wait at most SECONDS for an import into the database to end (0: fail at once; default: as long as it takes).",
            valueName: "SECONDS"))
    var wait: Double?

    func validate() throws {
        if let wait, !(wait >= 0 && wait <= ImportCommand.longestWait) {
            throw ValidationError("--wait must be 0 to \(Int(ImportCommand.longestWait)) seconds, got \(wait)")
        }
    }

    func run() throws {
        if ImportCommand.isPostgres(db) { return removeFromPostgres() }
        let store = openExistingStore(db)
        let removed: Int?
        do {
            removed = try store.removeFeed(named: name, lockWait: wait.map { .milliseconds(Int(($0 * 1000).rounded())) })
        } catch let error as ImportError {
            fail("\(error); nothing was removed")
        } catch {
            fail("\(GTFSError.displayable(db)): \(error); nothing was removed")
        }
        let shown = GTFSError.displayable(name)
        guard let removed else { fail("\(GTFSError.displayable(db)) holds no feed named \(shown) (see gtfs-import list)") }
        print("removed feed \(shown) from \(GTFSError.displayable(db)): \(Format.count(removed)) rows")
    }

    /// `remove` in a PostgreSQL schema: the same messages.
    private func removeFromPostgres() {
        let store = ImportCommand.openPostgres(db, schema: schema, nothing: "nothing was removed")
        let database = "\(store.target) schema \(schema)"
        let removed: Int?
        do {
            removed = try store.remove(feed: name)
        } catch {
            fail("\(error); nothing was removed")
        }
        let shown = GTFSError.displayable(name)
        guard let removed else { fail("\(GTFSError.displayable(database)) holds no feed named \(shown) (see gtfs-import list)") }
        print("removed feed \(shown) from \(GTFSError.displayable(database)): \(Format.count(removed)) rows")
    }
}
