import ArgumentParser
import GTFS
import GTFSImport
import StoreTools
import ToolSupport

/// `gtfs-import remove NAME`: deletes one feed's rows, in one transaction.
struct RemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove", abstract: "Remove a feed: exactly its rows, in one transaction (its import history stays).")

    @Argument(help: "The feed's name, as `gtfs-import list` shows it.")
    var name: String

    @OptionGroup var database: DatabaseOptions

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
        let (store, name) = try database.openExisting(readOnly: false, nothing: "nothing was removed")
        let removed: Int?
        do {
            removed = try store.removeFeed(named: self.name, lockWait: wait.map { .milliseconds(Int(($0 * 1000).rounded())) })
        } catch let error as ImportError {
            throw ToolFailure("\(error); nothing was removed")
        } catch {
            throw ToolFailure(database.isServer ? "\(error); nothing was removed" : "\(GTFSError.displayable(name)): \(error); nothing was removed")
        }
        let shown = GTFSError.displayable(self.name)
        guard let removed else { throw ToolFailure("\(GTFSError.displayable(name)) holds no feed named \(shown) (see gtfs-import list)") }
        print("removed feed \(shown) from \(GTFSError.displayable(name)): \(Format.count(removed)) rows")
    }
}
