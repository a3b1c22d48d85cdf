import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import Synchronization

/// An HTTP/1.1 server for tests, on 127.0.0.1 only, on a port the system picks. Each request's answer comes
/// from the handler as a ``TestResponse``: a normal answer, or raw bytes that break the protocol on purpose
/// (a body cut short, a stall, an endless body). Every request is recorded.
public final class TestHTTPServer: Sendable {
    private let channel: any Channel
    private let recorded = Locked<[TestRequest]>([])
    /// The port it listens on.
    public let port: Int

    /// Whether it speaks https (with ``TestCertificate``).
    public let isTLS: Bool

    /// Starts the server, speaking https with ``TestCertificate`` when `tls`.
    public init(tls: Bool = false, handler: @escaping @Sendable (TestRequest) -> TestResponse) async throws {
        let recorded = self.recorded
        isTLS = tls
        let context: NIOSSLContext? =
            tls
            ? try NIOSSLContext(
                configuration: .makeServerConfiguration(
                    certificateChain: try NIOSSLCertificate.fromPEMBytes(Array(TestCertificate.certificate.utf8)).map { .certificate($0) },
                    privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(TestCertificate.privateKey.utf8), format: .pem))))
            : nil
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let context { try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context)) }
                    try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(HTTPRequestDecoder()))
                    try channel.pipeline.syncOperations.addHandler(
                        RequestHandler(handler: handler) { request in recorded.withLock { $0.append(request) } })
                }
            }
        channel = try await bootstrap.bind(host: "127.0.0.1", port: 0).get()
        port = channel.localAddress?.port ?? 0
    }

    /// `http://127.0.0.1:PORT/path` (`https` for a TLS server).
    public func url(_ path: String) -> String { "\(isTLS ? "https" : "http")://127.0.0.1:\(port)\(path.hasPrefix("/") ? "" : "/")\(path)" }

    /// The requests received so far.
    public var requests: [TestRequest] { recorded.withLock { $0 } }

    /// Stops listening; connections already open end with their clients.
    public func stop() {
        channel.close(promise: nil)
    }
}

/// A request as received.
public struct TestRequest: Sendable {
    /// `GET`, …
    public let method: String
    /// The request target: the path and query, or an absolute URL (through a proxy).
    public let target: String
    /// The headers, in order.
    public let headers: [(name: String, value: String)]

    /// The first value of a header, by name without case.
    public func header(_ name: String) -> String? { headers.first { $0.name.lowercased() == name.lowercased() }?.value }
}

/// How the server answers one request.
public enum TestResponse: Sendable {
    /// A well-formed answer with `Content-Length`.
    case answer(status: Int, headers: [(String, String)] = [], body: [UInt8] = [])
    /// These bytes, exactly, and then the connection is closed (or left open and silent with `stall`).
    case raw([UInt8], stall: Bool = false)
    /// A 200 whose body never ends (chunks of zeros after the first bytes given).
    case endless(first: [UInt8])

    /// The head of an answer as text, `Content-Length` included unless `length` is `nil`.
    public static func head(status: Int, headers: [(String, String)], length: Int?) -> [UInt8] {
        var text = "HTTP/1.1 \(status) \(HTTPResponseStatus(statusCode: status).reasonPhrase)\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        if let length { text += "Content-Length: \(length)\r\n" }
        return Array((text + "\r\n").utf8)
    }
}

private final class RequestHandler: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = ByteBuffer

    private let handler: @Sendable (TestRequest) -> TestResponse
    private let record: @Sendable (TestRequest) -> Void
    private var head: HTTPRequestHead?

    init(handler: @escaping @Sendable (TestRequest) -> TestResponse, record: @escaping @Sendable (TestRequest) -> Void) {
        self.handler = handler
        self.record = record
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head): self.head = head
        case .body: break
        case .end:
            guard let head else { return }
            let request = TestRequest(method: head.method.rawValue, target: head.uri, headers: head.headers.map { ($0.name, $0.value) })
            record(request)
            answer(handler(request), context: context, keepAlive: head.isKeepAlive)
        }
    }

    private func answer(_ response: TestResponse, context: ChannelHandlerContext, keepAlive: Bool) {
        switch response {
        case .answer(let status, let headers, let body):
            let bytes = TestResponse.head(status: status, headers: headers + (keepAlive ? [] : [("Connection", "close")]), length: body.count) + body
            let channel = context.channel
            let written = channel.writeAndFlush(channel.allocator.buffer(bytes: bytes))
            if !keepAlive { written.whenComplete { _ in channel.close(promise: nil) } }
        case .raw(let bytes, let stall):
            let channel = context.channel
            let written = channel.writeAndFlush(channel.allocator.buffer(bytes: bytes))
            if !stall { written.whenComplete { _ in channel.close(promise: nil) } }
        case .endless(let first):
            let head = TestResponse.head(status: 200, headers: [("Content-Type", "application/zip")], length: nil)
            let channel = context.channel
            channel.writeAndFlush(channel.allocator.buffer(bytes: head + first), promise: nil)
            Self.pour(channel, chunk: channel.allocator.buffer(repeating: 0, count: 64 * 1024))
        }
    }

    /// Writes `chunk` again and again until the peer goes away.
    private static func pour(_ channel: any Channel, chunk: ByteBuffer) {
        channel.writeAndFlush(chunk).whenComplete { result in
            if case .success = result { pour(channel, chunk: chunk) } else { channel.close(promise: nil) }
        }
    }
}

/// A value shared between threads under a lock.
public final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    public init(_ value: Value) { mutex = Mutex(value) }

    /// Runs `body` with the value, under the lock.
    public func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T { try mutex.withLock { try body(&$0) } }
}
