import ArgumentParser
import Foundation
import GTFSImport
import Platform
import StoreTools
import ToolSupport

/// `gtfs-query`: reads a database `gtfs-import` wrote: departure boards, stops near a point or by name.
@main
struct GTFSQueryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gtfs-query",
        abstract: "Ask a GTFS database what a timetable is for: departures from a stop, stops near a point or by name.",
        discussion: """
            Reads the database gtfs-import wrote (gtfs.sqlite unless --db; a PostgreSQL server with \
            --db postgresql://…), without writing to it. Times are those of the feed's time zone (its agency's).

            Exit status: 0 answered (also with no departures), 1 failed (a missing database or stop), 2 usage error.
            """,
        version: "\(ToolVersion.number) (database schema \(GTFSSchema.version))",
        subcommands: [DeparturesCommand.self, StopsCommand.self, VehiclesCommand.self]
    )

    /// Parses and runs; a usage error exits with status 2, as the other tools' do.
    static func main() { runAsTool() }
}

/// The options every query shares.
struct StoreOptions: ParsableArguments {
    @OptionGroup var database: DatabaseOptions

    @OptionGroup var feedOption: FeedOption

    /// The feed to read.
    var feed: String { feedOption.feed }

    @Flag(name: .long, help: "Print JSON on standard output.")
    var json = false

    /// Opens the store for reading, refusing a feed it does not hold.
    /// - Throws: ``/ToolSupport/ToolFailure`` saying why it cannot, naming the feeds it holds.
    func open() throws(ToolFailure) -> any FeedStore {
        let store = try database.openExisting(readOnly: true, nothing: "nothing was read").store
        let names: [String]
        do {
            names = try store.feedNames()
        } catch {
            throw ToolFailure("\(error)")
        }
        guard names.contains(feed) else { throw ToolFailure(StoreError.unknownFeed(name: feed, feeds: names).description) }
        return store
    }
}
