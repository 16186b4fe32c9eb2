import FlyingFox
import FlyingSocks
import Foundation

/// The HTTP server of `folio serve`, in this process (FlyingFox), bound to the loopback
/// interface only: a preview is for the person editing, not for the network.
final class PreviewServer: Sendable {
    private let http: HTTPServer
    private let task: Task<Void, Never>
    /// The port it listens on: the one asked for, or the free one taken instead.
    let port: UInt16

    private init(http: HTTPServer, task: Task<Void, Never>, port: UInt16) {
        self.http = http
        self.task = task
        self.port = port
    }

    /// Listens on `port` of 127.0.0.1, or on a free port when that one is taken (or 0).
    static func start(port: UInt16, handler: some HTTPHandler) async throws -> PreviewServer {
        do {
            return try await listen(on: port, handler: handler)
        } catch where port != 0 {
            return try await listen(on: 0, handler: handler)
        }
    }

    private final class Failure: @unchecked Sendable {
        private let lock = NSLock()
        private var error: (any Error)?
        var value: (any Error)? {
            get { lock.withLock { error } }
            set { lock.withLock { error = newValue } }
        }
    }

    private static func listen(on port: UInt16, handler: some HTTPHandler) async throws -> PreviewServer {
        let address = try sockaddr_in.inet(ip4: "127.0.0.1", port: port)
        // No handler timeout worth the name: the event streams are long-lived responses, and a
        // file is answered in microseconds anyway.
        let http = HTTPServer(address: address, timeout: 60, pool: NoDelaySocketPool(), logger: .disabled, handler: handler)
        let failure = Failure()
        let task = Task {
            do { try await http.run() } catch { failure.value = error }
        }
        // run() either binds and listens, or fails (most often: the port is taken).
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if await http.isListening, case .ip4(_, let bound)? = await http.listeningAddress {
                return PreviewServer(http: http, task: task, port: bound)
            }
            if let error = failure.value {
                throw FolioError(path: "127.0.0.1:\(port)", reason: "cannot listen: \(error.localizedDescription)")
            }
            try? await Task.sleep(nanoseconds: 2_000_000)
        }
        task.cancel()
        throw FolioError(path: "127.0.0.1:\(port)", reason: "the server did not start listening")
    }

    /// Stops listening, lets responses under way finish for a moment, then closes everything.
    func stop() async {
        await http.stop(timeout: 1)
        task.cancel()
        await task.value
    }
}
