import FlyingFox
import FlyingSocks
import FolioCore
import Foundation

/// The HTTP server of `folio serve`, in this process: FlyingSocks' asynchronous sockets, bound
/// to the loopback interface only (a preview is for the person editing, not for the network),
/// with Folio's own reading of requests (`RequestHeadReader`: every byte looked at once, heads
/// kept within limits) and writing of responses (`PreviewConnection`).
final class PreviewServer: Sendable {
    private let task: Task<Void, Never>
    private let listener: Socket
    /// The port it listens on: the one asked for, or the free one taken instead.
    let port: UInt16

    private init(task: Task<Void, Never>, listener: Socket, port: UInt16) {
        self.task = task
        self.listener = listener
        self.port = port
    }

    /// Listens on `port` of 127.0.0.1 (0: any free port), or, when it is taken and `movingOn`, on
    /// any free one.
    static func start(port: UInt16, movingOn: Bool = true, handler: PreviewHandler, idleTimeout: TimeInterval) async throws -> PreviewServer {
        do {
            return try await listen(on: port, handler: handler, idleTimeout: idleTimeout)
        } catch where port != 0 && movingOn {
            return try await listen(on: 0, handler: handler, idleTimeout: idleTimeout)
        } catch var error as FolioError where port != 0 {
            error.reason += " (another program is using it? choose another with --port, or --port 0 for any free one)"
            throw error
        }
    }

    private static func listen(on port: UInt16, handler: PreviewHandler, idleTimeout: TimeInterval) async throws -> PreviewServer {
        let socket: Socket
        let bound: UInt16
        do {
            socket = try Socket(domain: AF_INET)
            try socket.setValue(true, for: .localAddressReuse)
            try socket.bind(to: try sockaddr_in.inet(ip4: "127.0.0.1", port: port))
            try socket.listen()
            guard case .ip4(_, let actual) = try socket.sockname() else {
                throw FolioError(reason: "no port for the listening socket")
            }
            bound = actual
        } catch let error as FolioError {
            throw error
        } catch {
            throw FolioError(path: "127.0.0.1:\(port)", reason: "cannot listen: \(error)")
        }
        let pool = HTTPServer.defaultPool()
        try await pool.prepare()
        let listening = try AsyncSocket(socket: socket, pool: pool)
        let task = Task {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { try? await pool.run() }
                group.addTask {
                    await withDiscardingTaskGroup { connections in
                        do {
                            for try await client in listening.sockets {
                                connections.addTask { await PreviewConnection(socket: client, handler: handler, idleTimeout: idleTimeout).run() }
                            }
                        } catch {
                            // The listening socket closed: the server stops.
                        }
                    }
                }
                _ = await group.next()
                group.cancelAll()
            }
        }
        return PreviewServer(task: task, listener: socket, port: bound)
    }

    /// Stops listening and ends every connection, event streams included.
    func stop() async {
        task.cancel()
        try? listener.close()
        await task.value
    }
}
