import ArgumentParser
import Foundation
import GTFSSynth
import ToolSupport

/// `gtfs-synth stop-times`: generated stop times for a real feed's trips (see `SampleStopTimes`).
struct StopTimesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stop-times",
        abstract: "Write generated stop times for the trips of a feed without stop_times.txt.",
        discussion: """
            Each route gets a plausible line through the feed's stops (a station's platforms count as one \
            stop), each trip walks it in its direction at the route's speed, and the trips of a route start \
            at even intervals from 05:00 to 01:00. Generated, not real: for trying queries on real stops, \
            routes, trips and services. The bundled Berlin sample's stop times were made with:

              gtfs-synth stop-times --feed SampleData/berlin/vbb-2025-subset --seed 1 \\
                --out SampleData/berlin/vbb-2025-generated/stop_times.txt.gz
            """
    )

    @Option(name: .long, help: "The feed's directory or zip (its stops, routes and trips are read).")
    var feed: String

    @Option(name: .long, help: "The file to write; gzipped when it ends in .gz.")
    var out: String

    @Option(name: .long, help: "Seed of every random choice.")
    var seed: UInt64 = 1

    func run() throws {
        do {
            let rows = try SampleStopTimes(feedDirectory: feed, seed: seed).write(toPath: out)
            print("wrote \(out): \(rows) stop times")
        } catch {
            throw ToolFailure("\(error)")
        }
    }
}
