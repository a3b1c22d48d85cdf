import GTFS
import GTFSImport
import ToolSupport

/// Finds the stop a user means: a `stop_id`, or the best match of a name; a platform stands for its
/// station (also when the feed lists the platforms but not the station itself).
enum StopLookup {
    /// What a board is about.
    struct Place {
        let stopID: String
        let name: String
    }

    /// Of the stops a name matches, a station, else a platform of the station with the most matching
    /// platforms (`Alexanderplatz` means the station, not the tram stop of the same name), else the best match.
    private static func largestStation(_ matches: [Stop]) -> Stop? {
        if let station = matches.first(where: { $0.locationType == .station }) { return station }
        var sizes: [String: Int] = [:]
        for stop in matches { sizes[(stop.parentStation ?? stop.stopID).description, default: 0] += 1 }
        return matches.max { a, b in
            // The larger station; among equals, the earlier (better) match.
            let (sizeA, sizeB) = (sizes[(a.parentStation ?? a.stopID).description] ?? 0, sizes[(b.parentStation ?? b.stopID).description] ?? 0)
            if sizeA != sizeB { return sizeA < sizeB }
            return (matches.firstIndex(of: a) ?? 0) > (matches.firstIndex(of: b) ?? 0)
        }
    }

    /// The stop `text` means.
    /// - Throws: ``/ToolSupport/ToolFailure`` when there is none, or the store cannot be read.
    static func resolve(_ text: String, in store: any FeedStore, feed: String) throws(ToolFailure) -> Place {
        do {
            guard
                let stop = try store.stop(text, feed: feed)
                    ?? store.stops(inStation: text, feed: feed).first
                    ?? largestStation(try store.stops(named: text, feed: feed, limit: 100))
            else {
                throw ToolFailure("no stop \"\(text)\" in feed \(feed) (gtfs-query stops --name TEXT lists stops by name)")
            }
            if stop.locationType == .stop, let parent = stop.parentStation {
                let station = try store.stop(parent.description, feed: feed)
                return Place(stopID: parent.description, name: station?.stopName ?? stop.stopName ?? parent.description)
            }
            return Place(stopID: stop.stopID.description, name: stop.stopName ?? stop.stopID.description)
        } catch let failure as ToolFailure {
            throw failure
        } catch {
            throw ToolFailure("\(error)")
        }
    }
}
