import Foundation
import GTFS
import GTFSFetch
import ToolSupport

/// The feeds file of `gtfs-import sync`: a JSON array of entries, each `name`, `url`, optional `headers` (an
/// object of names and values; a value `${NAME}` is the environment variable NAME) and optional `every`
/// (`30s`, `15m`, `6h`, `1d`; an hour by default), and optional `realtime`, the feed's GTFS-Realtime sources,
/// each `url`, optional `headers` and `every` (30 seconds by default). Its errors name the entry and the field.
enum SyncFile {
    /// The shortest interval.
    static let shortestInterval = Duration.seconds(1)
    static let fields: Set<String> = ["name", "url", "headers", "every", "realtime"]

    /// The feeds of the file at `path`.
    /// - Throws: a message naming the file, and the entry and field at fault.
    static func load(_ path: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws(SyncFileError) -> [KeptFeed] {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw SyncFileError(path: path, message: "cannot be read: \((error as NSError).localizedDescription)")
        }
        guard let entries = try? JSONSerialization.jsonObject(with: data) as? [Any] else {
            throw SyncFileError(path: path, message: "is not a JSON array of feeds ([{\"name\": …, \"url\": …}, …])")
        }
        guard !entries.isEmpty else { throw SyncFileError(path: path, message: "lists no feeds") }
        var feeds: [KeptFeed] = []
        for (index, value) in entries.enumerated() {
            let feed = try entry(value, number: index + 1, path: path, environment: environment)
            if feeds.contains(where: { $0.name == feed.name }) {
                throw SyncFileError(path: path, message: "entry \(index + 1): \"name\": \(quoted(feed.name)) is given twice")
            }
            feeds.append(feed)
        }
        return feeds
    }

    private static func entry(_ value: Any, number: Int, path: String, environment: [String: String]) throws(SyncFileError) -> KeptFeed {
        func fail(_ message: String, name: String? = nil) -> SyncFileError {
            SyncFileError(path: path, message: "entry \(number)\(name.map { " (\(quoted($0)))" } ?? ""): \(message)")
        }
        guard let object = value as? [String: Any] else { throw fail("is not an object") }
        if let unknown = object.keys.sorted().first(where: { !fields.contains($0) }) {
            throw fail("unknown field \(quoted(unknown)) (the fields are name, url, headers, every, realtime)")
        }
        guard let name = object["name"] as? String, !name.isEmpty else { throw fail("\"name\" is missing or not a text") }
        let (url, headers, every) = try source(object, every: .seconds(3600), environment: environment) { fail($0, name: name) }
        var realtime: [KeptRealtimeSource] = []
        if let value = object["realtime"] {
            guard let list = value as? [Any] else { throw fail("\"realtime\" is not an array of sources", name: name) }
            for (index, item) in list.enumerated() {
                func failSource(_ message: String) -> SyncFileError { fail("\"realtime\" \(index + 1): \(message)", name: name) }
                guard let source = item as? [String: Any] else { throw failSource("is not an object") }
                if let unknown = source.keys.sorted().first(where: { !realtimeFields.contains($0) }) {
                    throw failSource("unknown field \(quoted(unknown)) (the fields are url, headers, every)")
                }
                let (url, headers, every) = try Self.source(source, every: .seconds(30), environment: environment, fail: failSource)
                realtime.append(KeptRealtimeSource(url: url, headers: headers, every: every))
            }
        }
        return KeptFeed(name: name, url: url, headers: headers, every: every, realtime: realtime)
    }

    static let realtimeFields: Set<String> = ["url", "headers", "every"]

    /// The `url`, `headers` and `every` of an entry or a realtime source.
    private static func source(
        _ object: [String: Any], every defaultEvery: Duration, environment: [String: String], fail: (String) -> SyncFileError
    ) throws(SyncFileError) -> (URL, [HTTPHeaderField], Duration) {
        guard let text = object["url"] as? String else { throw fail("\"url\" is missing or not a text") }
        guard FeedFetcher.isURL(text), let url = URL(string: text), (try? FeedFetcher(url: url)) != nil else {
            throw fail("\"url\" is not an http or https URL")
        }
        var headers: [HTTPHeaderField] = []
        if let value = object["headers"] {
            guard let pairs = value as? [String: Any] else { throw fail("\"headers\" is not an object of names and values") }
            for key in pairs.keys.sorted() {
                guard var text = pairs[key] as? String else { throw fail("\"headers\": the value of \(quoted(key)) is not a text") }
                if text.hasPrefix("${") && text.hasSuffix("}") {
                    let variable = String(text.dropFirst(2).dropLast())
                    guard let set = environment[variable] else {
                        throw fail("\"headers\": \(quoted(key)) names the environment variable \(variable), which is not set")
                    }
                    text = set
                }
                do {
                    headers.append(try HTTPHeaderField(name: key, value: text))
                } catch {
                    throw fail("\"headers\": \(error)")
                }
            }
        }
        var every = defaultEvery
        if let value = object["every"] {
            guard let text = value as? String, let duration = Interval.duration(text), duration >= shortestInterval else {
                throw fail("\"every\" is not an interval like 30s, 15m, 6h or 1d (at least 1s)")
            }
            every = duration
        }
        return (url, headers, every)
    }

    private static func quoted(_ text: String) -> String { "\"\(GTFSError.displayable(text))\"" }
}

/// A feeds file that cannot be used.
struct SyncFileError: Error, CustomStringConvertible {
    let path: String
    let message: String

    var description: String { "\(GTFSError.displayable(path)): \(message)" }
}
