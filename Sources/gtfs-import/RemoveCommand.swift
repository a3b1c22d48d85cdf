import ArgumentParser
import GTFSImport

/// `gtfs-import remove NAME`: deletes one feed's rows, in one transaction.
struct RemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove", abstract: "Remove a feed: exactly its rows, in one transaction (its import history stays).")

    @Argument(help: "The feed's name, as `gtfs-import list` shows it.")
    var name: String

    @Option(name: .long, help: "The database file.")
    var db = "gtfs.sqlite"

    func run() throws {
        let store = openExistingStore(db)
        let removed: Int?
        do {
            removed = try store.removeFeed(named: name)
        } catch {
            fail("\(db): \(error); nothing was removed")
        }
        guard let removed else { fail("\(db) holds no feed named \(name) (see gtfs-import list)") }
        print("removed feed \(name) from \(db): \(Format.count(removed)) rows")
    }
}
