import FlyingFox
import FlyingSocks
import FolioCore
import Foundation

/// A real HTTP server on 127.0.0.1, in this process, answering as a test says: what Folio's
/// network clients (Flickr, S3) are tested against. It remembers every request.
public final class TestWebServer: @unchecked Sendable {
    public struct Recorded: Sendable {
        public var method: String
        public var path: String
        public var query: [String: String]
        public var headers: [String: String]
        public var body: Data
    }

    public typealias Respond = @Sendable (Recorded) async -> FlyingFox.HTTPResponse

    private let server: HTTPServer
    private let task: Task<Void, Never>
    public let port: UInt16
    private let lock = NSLock()
    private var recorded: [Recorded] = []

    public var requests: [Recorded] { lock.withLock { recorded } }
    public var url: URL { URL(string: "http://127.0.0.1:\(port)/")! }

    private struct Handler: HTTPHandler {
        let server: @Sendable () -> TestWebServer?
        let respond: Respond

        func handleRequest(_ request: FlyingFox.HTTPRequest) async throws -> FlyingFox.HTTPResponse {
            var headers: [String: String] = [:]
            for (name, value) in request.headers { headers[name.rawValue.lowercased()] = value }
            let recorded = Recorded(
                method: request.method.rawValue, path: request.path,
                query: Dictionary(request.query.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 }),
                headers: headers, body: try await request.bodyData)
            server()?.record(recorded)
            return await respond(recorded)
        }
    }

    private final class Box: @unchecked Sendable { weak var server: TestWebServer? }

    private init(server: HTTPServer, task: Task<Void, Never>, port: UInt16) {
        self.server = server
        self.task = task
        self.port = port
    }

    private func record(_ request: Recorded) { lock.withLock { recorded.append(request) } }

    public static func start(_ respond: @escaping Respond) async throws -> TestWebServer {
        let box = Box()
        let http = HTTPServer(address: try sockaddr_in.inet(ip4: "127.0.0.1", port: 0), timeout: 30,
                              logger: .disabled, handler: Handler(server: { box.server }, respond: respond))
        let task = Task { _ = try? await http.run() }
        for _ in 0..<1000 {
            if await http.isListening, case .ip4(_, let port)? = await http.listeningAddress {
                let server = TestWebServer(server: http, task: task, port: port)
                box.server = server
                return server
            }
            try await Task.sleep(nanoseconds: 2_000_000)
        }
        task.cancel()
        throw FolioError(reason: "the test server did not start listening")
    }

    public func stop() async {
        await server.stop(timeout: 1)
        task.cancel()
        await task.value
    }

    public static func response(_ status: Int, _ body: String = "", headers: [String: String] = [:]) -> FlyingFox.HTTPResponse {
        response(status, data: Data(body.utf8), headers: headers)
    }

    public static func response(_ status: Int, data: Data, headers: [String: String] = [:]) -> FlyingFox.HTTPResponse {
        var all = HTTPHeaders()
        for (name, value) in headers { all[HTTPHeader(name)] = value }
        return FlyingFox.HTTPResponse(statusCode: HTTPStatusCode(status, phrase: "Status \(status)"), headers: all, body: data)
    }
}
