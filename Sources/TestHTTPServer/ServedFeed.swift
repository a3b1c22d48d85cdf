public import Foundation
import Synchronization
import TestSupport

/// A feed served on 127.0.0.1 as a publisher serves it (`ETag`, `Last-Modified`, `Range` with `If-Range`,
/// 304 to a matching validator), with faults queued for the next requests.
public final class ServedFeed: Sendable {
    /// What the next request gets instead of the feed.
    public enum Fault: Sendable {
        case status(Int, headers: [(String, String)] = [])
        /// The head with the whole length, half the body, then the connection closed.
        case dropHalf
        /// The head and nothing more, the connection left open.
        case stall
        /// `Content-Length` as given, the whole zip after it, then closed.
        case declaredLength(Int)
        /// A body that never ends, after the zip's first bytes.
        case endless
        /// A 200 HTML page.
        case html
        /// A redirect to the path (or URL) given.
        case redirect(String)
        /// The whole feed with 200 even to a `Range` request.
        case ignoreRange
        /// A 206 whose part starts at byte 10, whatever was asked.
        case misplacedPart
        /// A server that ignores `If-Range`: the rest of another version (its body and tag) from the byte
        /// asked for, which it publishes.
        case spliced(body: [UInt8], etag: String)
    }

    public struct State: Sendable {
        public var body: [UInt8]
        public var etag: String?
        public var lastModified: String?
        public var faults: [Fault] = []
        /// Answers to paths other than the feed's: a redirect chain, another host's file.
        public var routes: [String: TestResponse] = [:]
    }

    public let state: Locked<State>
    public let server: TestHTTPServer

    public init(body: [UInt8], etag: String? = "\"v1\"", lastModified: String? = "Wed, 25 Nov 2026 10:00:00 GMT") async throws {
        let state = Locked(State(body: body, etag: etag, lastModified: lastModified))
        self.state = state
        server = try await TestHTTPServer { request in ServedFeed.answer(request, state: state) }
    }

    /// The feed's URL.
    public var url: URL { URL(string: server.url("/feed.zip"))! }

    /// Serves another version.
    public func publish(_ body: [UInt8], etag: String?, lastModified: String? = nil) {
        state.withLock {
            $0.body = body
            $0.etag = etag
            $0.lastModified = lastModified
        }
    }

    public func fail(_ faults: Fault...) { state.withLock { $0.faults += faults } }

    public var requests: [TestRequest] { server.requests }

    public func stop() { server.stop() }

    private static func answer(_ request: TestRequest, state: Locked<State>) -> TestResponse {
        let (current, fault, route) = state.withLock { state -> (State, Fault?, TestResponse?) in
            let route = state.routes[request.target]
            let fault = route == nil && !state.faults.isEmpty ? state.faults.removeFirst() : nil
            if case .spliced(let body, let etag) = fault { (state.body, state.etag) = (body, etag) }
            return (state, fault, route)
        }
        if let route { return route }
        var validators: [(String, String)] = []
        if let etag = current.etag { validators.append(("ETag", etag)) }
        if let date = current.lastModified { validators.append(("Last-Modified", date)) }
        let headers = validators + [("Accept-Ranges", "bytes"), ("Content-Type", "application/zip")]
        if let fault { return answer(fault, request: request, current: current, headers: headers) }
        if let tag = request.header("If-None-Match"), tag == current.etag { return .answer(status: 304, headers: validators) }
        if current.etag == nil, let date = request.header("If-Modified-Since"), date == current.lastModified {
            return .answer(status: 304, headers: validators)
        }
        if let range = request.header("Range"), range.hasPrefix("bytes="), let start = Int(range.dropFirst(6).dropLast()),
            let ifRange = request.header("If-Range"), ifRange == current.etag || ifRange == current.lastModified, start < current.body.count
        {
            let rest = Array(current.body[start...])
            return .answer(
                status: 206, headers: headers + [("Content-Range", "bytes \(start)-\(current.body.count - 1)/\(current.body.count)")], body: rest)
        }
        return .answer(status: 200, headers: headers, body: current.body)
    }

    private static func answer(_ fault: Fault, request: TestRequest, current: State, headers: [(String, String)]) -> TestResponse {
        switch fault {
        case .status(let code, let extra): return .answer(status: code, headers: extra, body: Array("failure \(code)".utf8))
        case .dropHalf:
            return .raw(TestResponse.head(status: 200, headers: headers, length: current.body.count) + current.body.prefix(current.body.count / 2))
        case .stall: return .raw(TestResponse.head(status: 200, headers: headers, length: current.body.count), stall: true)
        case .declaredLength(let length): return .raw(TestResponse.head(status: 200, headers: headers, length: length) + current.body)
        case .endless: return .endless(first: Array(current.body.prefix(64)))
        case .html:
            return .answer(
                status: 200, headers: [("Content-Type", "text/html")],
                body: Array("<html>\n<title>Maintenance</title>\u{1B}[31m we are down</html>".utf8))
        case .redirect(let location): return .answer(status: 302, headers: [("Location", location)])
        case .ignoreRange: return .answer(status: 200, headers: headers, body: current.body)
        case .spliced:
            let start = request.header("Range").flatMap { Int($0.dropFirst(6).dropLast()) } ?? 0
            return .answer(
                status: 206,
                headers: [("ETag", current.etag ?? ""), ("Content-Range", "bytes \(start)-\(current.body.count - 1)/\(current.body.count)")],
                body: Array(current.body.dropFirst(start)))
        case .misplacedPart:
            return .answer(
                status: 206, headers: headers + [("Content-Range", "bytes 10-\(current.body.count - 1)/\(current.body.count)")],
                body: Array(current.body.dropFirst(10)))
        }
    }
}

/// Small valid feeds (200 stops, 100 trips) whose stops' names carry their version.
public enum FeedFixture {
    public static func zip(version: Int) -> [UInt8] {
        var zip = TestZip()
        zip.add("agency.txt", "agency_id,agency_name,agency_url,agency_timezone\nA,VBB,https://vbb.de,Europe/Berlin\n")
        zip.add("routes.txt", "route_id,agency_id,route_short_name,route_type\nR1,A,M4,900\n")
        zip.add(
            "calendar.txt",
            "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nWD,1,1,1,1,1,0,0,20260101,20271231\n")
        var stops = "stop_id,stop_name,stop_lat,stop_lon\n"
        var times = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
        var trips = "route_id,service_id,trip_id\n"
        for index in 0..<200 { stops += "S\(index),Stop \(index) v\(version),52.\(500 + index),13.4\n" }
        for trip in 0..<100 {
            trips += "R1,WD,T\(trip)\n"
            for step in 0..<5 {
                let time = String(format: "%02d:%02d:00", 6 + trip / 10, step * 5 + trip % 10)
                times += "T\(trip),\(time),\(time),S\((trip + step * 7) % 200),\(step + 1)\n"
            }
        }
        zip.add("stops.txt", stops)
        zip.add("trips.txt", trips)
        zip.add("stop_times.txt", times)
        return zip.archive()
    }
}
