import ArgumentParser
import Foundation
import GTFSImport
import ToolSupport

import Platform

/// `gtfs-import`: the command-line tool. Without a command name it imports (`gtfs-import feed.zip`);
/// `list` shows the feeds of a database and `remove` deletes one.
@main
struct GTFSImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gtfs-import",
        abstract: "Import GTFS feeds (files, gzip, a directory, a .zip or standard input) into SQLite, and manage them.",
        discussion: discussion,
        version: "\(ToolVersion.number) (database schema \(GTFSSchema.version))",
        subcommands: [ImportCommand.self, ListCommand.self, RemoveCommand.self, DiffCommand.self, SyncCommand.self, RealtimeCommand.self],
        defaultSubcommand: ImportCommand.self
    )

    /// What the help says about feeds, atomicity and exit statuses.
    static let discussion = """
        Each feed has a name (--feed, default "default"); several feeds live side by side in one database. \
        Importing a feed the database already holds applies only what changed: files with the same content \
        are skipped, the others are compared row by row and only the differences are written (--full replaces \
        the feed whole). An identical feed writes nothing.

        The import is one transaction: a failed, cancelled or killed import leaves the database as it was. \
        A directory or zip replaces every table of the feed; single files replace only their tables.

        Exit status:
          0    imported (or nothing to change)
          3    imported, but some rows were rejected (see the errors on standard error, or --errors FILE)
          1    failed; the database is unchanged
          4    imported, but the --changes output could not be completed (the message says where the list is)
          2    usage error
          130  cancelled by SIGINT (Ctrl-C); 143 cancelled by SIGTERM (the database is unchanged)
        """

    /// Exit statuses beyond ArgumentParser's.
    enum Status {
        static let rejectedRows: Int32 = 3
        static let failed: Int32 = 1
        /// The import committed, but its change list could not be completed: a file's rename, or a stream's
        /// last line, failed after the commit.
        static let changesIncomplete: Int32 = 4
    }

    /// Parses and runs (a usage error exits with status 2); `--help` alone shows the import's options.
    static func main() {
        if ["-h", "--help", "help"].contains(CommandLine.arguments.dropFirst().first), CommandLine.arguments.count == 2 {
            print(help)
            return
        }
        runAsTool()
    }
}

extension GTFSImportCommand {
    /// `gtfs-import --help`: the default command's help (what most runs use: its options), then the
    /// commands, from the root's own help.
    static var help: String {
        let importHelp = helpMessage(for: ImportCommand.self).replacingOccurrences(of: "USAGE: gtfs-import import ", with: "USAGE: gtfs-import [import] ")
        let root = helpMessage()
        guard let commands = root.range(of: "SUBCOMMANDS:") else { return importHelp }
        return importHelp.trimmingCharacters(in: .newlines) + "\n\n" + root[commands.lowerBound...]
    }
}

