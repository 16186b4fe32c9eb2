import FlyingFox
import Foundation

/// Flickr on 127.0.0.1, for tests: its REST endpoint answers with the recorded answers of
/// `Tests/Fixtures/Flickr`, and its image URLs with JPEGs drawn at the sizes the answers give.
/// Faults can be queued per method (or "image"), each served once, before the real answer.
public final class FlickrStub: @unchecked Sendable {
    public enum Fault: Sendable {
        /// An HTTP status with no useful body; 429 and 503 may say when to come back.
        case status(Int, retryAfter: String? = nil)
        /// Any body with status 200: truncated JSON, a `"stat": "fail"`.
        case body(String)
        /// The real answer inside `jsonFlickrApi(…)`.
        case jsonp
        /// The real answer, late.
        case delay(TimeInterval)
    }

    public static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tests/Fixtures/Flickr")

    /// The key the stub accepts; any other is refused as Flickr refuses one.
    public static let apiKey = "test-key-7f3a9c51"

    public private(set) var server: TestWebServer!
    private let lock = NSLock()
    private var faults: [String: [Fault]] = [:]
    private var log: [String] = []
    private var sizes: [String: (Int, Int)] = [:]

    public var endpoint: URL { server.url.appendingPathComponent("services/rest/") }

    /// The methods called and the images fetched ("image:<file>"), in order.
    public var calls: [String] { lock.withLock { log } }
    public func calls(_ method: String) -> Int { calls.filter { $0 == method }.count }
    public var imageFetches: Int { calls.filter { $0.hasPrefix("image:") }.count }

    public static func start() async throws -> FlickrStub {
        let stub = FlickrStub()
        stub.server = try await TestWebServer.start { [weak stub] request in
            await stub?.respond(request) ?? TestWebServer.response(500)
        }
        stub.sizes = try Self.imageSizes()
        return stub
    }

    public func stop() async { await server.stop() }

    public func queue(_ fault: Fault, for method: String, times: Int = 1) {
        lock.withLock { faults[method, default: []] += Array(repeating: fault, count: times) }
    }

    /// A fixture's text with the image URLs leading here.
    public func fixture(_ name: String) throws -> String {
        try String(contentsOf: Self.fixtures.appendingPathComponent(name), encoding: .utf8)
            .replacingOccurrences(of: "{{server}}", with: server.url.absoluteString)
    }

    private func nextFault(_ key: String) -> Fault? {
        lock.withLock {
            guard var queued = faults[key], !queued.isEmpty else { return nil }
            let fault = queued.removeFirst()
            faults[key] = queued
            return fault
        }
    }

    private func respond(_ request: TestWebServer.Recorded) async -> FlyingFox.HTTPResponse {
        let key: String
        if request.path.hasPrefix("/img/") {
            key = "image"
            lock.withLock { log.append("image:\(request.path.dropFirst(5))") }
        } else {
            key = request.query["method"] ?? "?"
            lock.withLock { log.append(key) }
        }
        var wrap = false
        switch nextFault(key) {
        case .status(let status, let retryAfter)?:
            return TestWebServer.response(status, "<html>busy</html>", headers: retryAfter.map { ["Retry-After": $0] } ?? [:])
        case .body(let body)?:
            return TestWebServer.response(200, body, headers: ["Content-Type": "application/json"])
        case .jsonp?:
            wrap = true
        case .delay(let seconds)?:
            try? await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
        case nil:
            break
        }
        if key == "image" { return image(String(request.path.dropFirst(5))) }
        let body = (try? answer(key, request.query)) ?? #"{"stat":"fail","code":112,"message":"Method \"\#(key)\" not found"}"#
        return TestWebServer.response(200, wrap ? "jsonFlickrApi(\(body))" : body, headers: ["Content-Type": "application/json"])
    }

    private func answer(_ method: String, _ query: [String: String]) throws -> String {
        guard query["api_key"] == Self.apiKey else { return try fixture("fail-invalid-key.json") }
        switch method {
        case "flickr.photos.search": return try fixture("search-page-\(query["page"] ?? "1").json")
        case "flickr.photosets.getPhotos": return try fixture("photoset.json")
        case "flickr.people.findByUsername": return try fixture("find-by-username.json")
        case "flickr.places.getInfo":
            let name = "place-\(query["place_id"] ?? "").json"
            let known = FileManager.default.fileExists(atPath: Self.fixtures.appendingPathComponent(name).path)
            return try fixture(known ? name : "place-not-found.json")
        default: throw CocoaError(.fileNoSuchFile)
        }
    }

    /// A JPEG at the size the answers give the file, drawn in a colour of its name's own.
    private func image(_ file: String) -> FlyingFox.HTTPResponse {
        guard let (width, height) = sizes[file] else { return TestWebServer.response(404, "no such image") }
        let hash = file.unicodeScalars.reduce(7) { ($0 &* 31 &+ Int($1.value)) & 0xFFFF }
        var canvas = Canvas(width: width, height: height, background: (hash % 200 + 30, hash / 7 % 200 + 30, hash / 13 % 200 + 30))
        canvas.fill(x: width / 4, y: height / 4, width: width / 2, height: height / 2, (250, 220, 120))
        guard let jpeg = try? canvas.encoded(as: .jpeg, quality: 85) else { return TestWebServer.response(500) }
        return TestWebServer.response(200, data: jpeg, headers: ["Content-Type": "image/jpeg"])
    }

    /// Every image URL of the fixtures with its size: "53124000001_z.jpg" → (640, 427).
    static func imageSizes() throws -> [String: (Int, Int)] {
        var sizes: [String: (Int, Int)] = [:]
        func walk(_ value: Any) {
            if let array = value as? [Any] { array.forEach(walk) }
            guard let object = value as? [String: Any] else { return }
            for (key, value) in object {
                if key.hasPrefix("url_"), let url = value as? String {
                    let label = key.dropFirst(4)
                    func number(_ any: Any?) -> Int? { (any as? Int) ?? (any as? String).flatMap { Int($0) } }
                    if let width = number(object["width_\(label)"]), let height = number(object["height_\(label)"]) {
                        sizes[String(url.split(separator: "/").last ?? "")] = (width, height)
                    }
                } else {
                    walk(value)
                }
            }
        }
        for name in try FileManager.default.contentsOfDirectory(atPath: fixtures.path) where name.hasSuffix(".json") {
            walk(try JSONSerialization.jsonObject(with: Data(contentsOf: fixtures.appendingPathComponent(name))))
        }
        return sizes
    }
}
