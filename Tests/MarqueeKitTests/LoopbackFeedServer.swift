import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix

/// A real HTTP server on 127.0.0.1 (SwiftNIO) that serves feeds in the ways real servers do:
/// validators and 304, errors, slowness, redirects, gzip, oversized bodies, HTML pages.
final class LoopbackFeedServer: Sendable {
    struct Response: Sendable {
        var status: HTTPResponseStatus = .ok
        var headers: [(String, String)] = []
        var body = Data()
        var delay: TimeAmount = .zero
        /// When set, the body is sent one byte at a time, this long apart (a server that
        /// drips its answer), after the head.
        var drip: TimeAmount?
    }

    /// Produces a response for a path, the request headers and how often the path was asked for.
    typealias Route = @Sendable (_ headers: HTTPHeaders, _ count: Int) -> Response

    private let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    private let channel: Channel
    private let counts = NIOLockedValueBox<[String: Int]>([:])
    /// Requests being answered now, and the most there were at once.
    private let inFlight = NIOLockedValueBox((now: 0, most: 0))
    let port: Int

    init(routes: [String: Route]) throws {
        let counts = self.counts, inFlight = self.inFlight
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(Handler(routes: routes, counts: counts, inFlight: inFlight))
                }
            }
        channel = try bootstrap.bind(host: "127.0.0.1", port: 0).wait()
        port = channel.localAddress!.port!
    }

    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// How many requests a path received.
    func requests(_ path: String) -> Int { counts.withLockedValue { $0[path, default: 0] } }

    /// The most requests the server was answering at the same time.
    var mostAtOnce: Int { inFlight.withLockedValue { $0.most } }

    func shutdown() {
        try? channel.close().wait()
        try? group.syncShutdownGracefully()
    }

    private final class Handler: ChannelInboundHandler {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart

        let routes: [String: Route]
        let counts: NIOLockedValueBox<[String: Int]>
        let inFlight: NIOLockedValueBox<(now: Int, most: Int)>
        var head: HTTPRequestHead?

        init(routes: [String: Route], counts: NIOLockedValueBox<[String: Int]>, inFlight: NIOLockedValueBox<(now: Int, most: Int)>) {
            self.routes = routes
            self.counts = counts
            self.inFlight = inFlight
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head): self.head = head
            case .body: break
            case .end:
                guard let head else { return }
                let count = counts.withLockedValue { $0[head.uri, default: 0] += 1; return $0[head.uri]! }
                inFlight.withLockedValue { $0.now += 1; $0.most = max($0.most, $0.now) }
                let response = routes[head.uri]?(head.headers, count) ?? Response(status: .notFound)
                let keepAlive = head.isKeepAlive
                let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
                context.eventLoop.scheduleTask(in: response.delay) {
                    let (handler, context) = loopBound.value
                    handler.inFlight.withLockedValue { $0.now -= 1 }
                    handler.send(response, keepAlive: keepAlive, context: context)
                }
            }
        }

        func send(_ response: Response, keepAlive: Bool, context: ChannelHandlerContext) {
            var headers = HTTPHeaders(response.headers)
            headers.replaceOrAdd(name: "Content-Length", value: String(response.body.count))
            if !keepAlive { headers.replaceOrAdd(name: "Connection", value: "close") }
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: response.status, headers: headers))), promise: nil)
            if let drip = response.drip {
                context.flush()
                self.drip(response.body[...], every: drip, context: context)
                return
            }
            if !response.body.isEmpty {
                context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: response.body)))), promise: nil)
            }
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }

        /// Sends `bytes` one at a time, `interval` apart, then ends the response; stops when the
        /// client has closed the connection.
        func drip(_ bytes: Data.SubSequence, every interval: TimeAmount, context: ChannelHandlerContext) {
            guard context.channel.isActive else { return }
            guard let first = bytes.first else {
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
                return
            }
            context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: [first])))), promise: nil)
            let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            context.eventLoop.scheduleTask(in: interval) {
                let (handler, context) = loopBound.value
                handler.drip(bytes.dropFirst(), every: interval, context: context)
            }
        }
    }
}
