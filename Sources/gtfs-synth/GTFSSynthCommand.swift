import ArgumentParser
import Platform
import ToolSupport

/// `gtfs-synth`: writes test data. Without a command name it writes a synthetic feed
/// (`gtfs-synth --scale 1 --out feed.zip`); `stop-times` writes stop times for a real feed that has none;
/// `realtime` writes a GTFS-Realtime TripUpdates message for a feed's trips in a time window.
@main
struct GTFSSynthCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gtfs-synth",
        abstract: "Write seeded test data: VBB-scale synthetic feeds, stop times for a feed without them, realtime trip updates.",
        version: ToolVersion.number,
        subcommands: [FeedCommand.self, StopTimesCommand.self, RealtimeCommand.self],
        defaultSubcommand: FeedCommand.self
    )

    /// Parses and runs; a usage error exits with status 2, as the other tools' do.
    static func main() { runAsTool() }
}
