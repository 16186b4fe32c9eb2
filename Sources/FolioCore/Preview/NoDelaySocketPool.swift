import FlyingFox
import FlyingSocks
import Foundation

/// FlyingFox's socket pool, with Nagle's algorithm turned off on the sockets it waits on.
/// FlyingFox writes a response's head and its body separately; with Nagle on, the body of
/// every response after the first on a kept-alive connection waits for the client's delayed
/// ACK of the head: 40 ms per request on Linux, which made a page of thumbnails crawl. The
/// listening socket is the first to wait, and Linux hands TCP_NODELAY on to the connections
/// it accepts; setting it again on each waiting connection covers systems that do not.
struct NoDelaySocketPool: AsyncSocketPool {
    let base: any AsyncSocketPool

    init(base: any AsyncSocketPool = HTTPServer.defaultPool()) {
        self.base = base
    }

    func prepare() async throws { try await base.prepare() }

    func run() async throws { try await base.run() }

    func suspendSocket(_ socket: Socket, untilReadyFor events: Socket.Events) async throws {
        var on: Int32 = 1
        // Fails harmlessly on anything that is not TCP.
        _ = setsockopt(socket.file.rawValue, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        try await base.suspendSocket(socket, untilReadyFor: events)
    }
}
