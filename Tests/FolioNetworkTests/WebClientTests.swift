@testable import FolioNetwork
import FolioTestSupport
import Foundation
import XCTest

/// libcurl against a real server on 127.0.0.1: what comes back, and every way of getting
/// nothing back, each told apart.
final class WebClientTests: XCTestCase {
    let client = CurlWebClient()

    func testAnAnswerComesBackWithItsStatusHeadersAndBody() async throws {
        let server = try await TestWebServer.start { request in
            TestWebServer.response(201, "hello \(request.query["name"] ?? "?"): \(String(decoding: request.body, as: UTF8.self))",
                                   headers: ["X-Thing": "42", "Content-Type": "text/plain"])
        }
        defer { Task { await server.stop() } }
        let url = server.url.appendingPathComponent("greet").absoluteString + "?name=Ada"
        let response = try await client.send(WebRequest(.post, URL(string: url)!, headers: [("X-Asked", "yes")], body: Data("body".utf8)))
        XCTAssertEqual(response.status, 201)
        XCTAssertEqual(String(decoding: response.body, as: UTF8.self), "hello Ada: body")
        XCTAssertEqual(response.header("x-thing"), "42")
        XCTAssertEqual(response.header("Content-Type"), "text/plain")
        let seen = try XCTUnwrap(server.requests.first)
        XCTAssertEqual([seen.method, seen.path], ["POST", "/greet"])
        XCTAssertEqual(seen.headers["x-asked"], "yes")
        XCTAssertNil(seen.headers["expect"], "no 100-continue dance")
    }

    func testEveryMethodSendsWhatItShould() async throws {
        let server = try await TestWebServer.start { _ in TestWebServer.response(200, "ok") }
        defer { Task { await server.stop() } }
        let payload = Data((0..<300_000).map { UInt8($0 % 251) })
        _ = try await client.send(WebRequest(.put, server.url.appendingPathComponent("object"), body: payload))
        _ = try await client.send(WebRequest(.delete, server.url.appendingPathComponent("object")))
        let head = try await client.send(WebRequest(.head, server.url))
        _ = try await client.send(WebRequest(.get, server.url))
        XCTAssertEqual(head.body, Data())
        XCTAssertEqual(server.requests.map(\.method), ["PUT", "DELETE", "HEAD", "GET"])
        XCTAssertEqual(server.requests[0].body, payload)
        XCTAssertEqual(server.requests[1].body, Data())
        // curl would call the body a form: a server then parses a photo's bytes as form fields.
        XCTAssertNil(server.requests[0].headers["content-type"], "no content type but the caller's")
    }

    func testAnEmptyBodyIsSentEmptyWithTheCallersType() async throws {
        let server = try await TestWebServer.start { _ in TestWebServer.response(200, "ok") }
        defer { Task { await server.stop() } }
        _ = try await client.send(WebRequest(.post, server.url, headers: [("Content-Type", "application/xml")], body: Data()))
        _ = try await client.send(WebRequest(.put, server.url))
        XCTAssertEqual(server.requests.map(\.body), [Data(), Data()])
        XCTAssertEqual(server.requests[0].headers["content-type"], "application/xml")
        XCTAssertEqual(server.requests[1].headers["content-length"], "0")
    }

    func testASlowServerIsATimeout() async throws {
        let server = try await TestWebServer.start { _ in
            try? await Task.sleep(nanoseconds: 3_000_000_000)
            return TestWebServer.response(200)
        }
        defer { Task { await server.stop() } }
        let started = Date()
        do {
            _ = try await client.send(WebRequest(.get, server.url, timeout: 0.3))
            XCTFail("no answer in time")
        } catch let error as WebError {
            XCTAssertEqual(error.kind, .timeout)
            XCTAssertTrue(error.isTransient)
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 2)
    }

    func testNoServerIsARefusedConnectionAndTheQueryNeverShows() async throws {
        let server = try await TestWebServer.start { _ in TestWebServer.response(200) }
        let port = server.port
        await server.stop()
        let url = URL(string: "http://127.0.0.1:\(port)/services/rest/?api_key=SECRET-KEY&method=x")!
        do {
            _ = try await client.send(WebRequest(.get, url))
            XCTFail("nothing listens there")
        } catch let error as WebError {
            XCTAssertEqual(error.kind, .connectionRefused)
            XCTAssertFalse("\(error)".contains("SECRET"), "\(error)")
            XCTAssertTrue("\(error)".hasPrefix("http://127.0.0.1:\(port)/services/rest/: "), "\(error)")
        }
    }

    func testTLSToAPlainServerIsATLSError() async throws {
        let server = try await TestWebServer.start { _ in TestWebServer.response(200) }
        defer { Task { await server.stop() } }
        do {
            _ = try await client.send(WebRequest(.get, URL(string: "https://127.0.0.1:\(server.port)/")!, timeout: 5))
            XCTFail("no TLS there")
        } catch let error as WebError {
            XCTAssertEqual(error.kind, .tls, "\(error)")
            XCTAssertFalse(error.isTransient)
        }
    }

    func testAnAnswerLargerThanAllowedIsRefused() async throws {
        let server = try await TestWebServer.start { _ in TestWebServer.response(200, String(repeating: "x", count: 300_000)) }
        defer { Task { await server.stop() } }
        do {
            _ = try await client.send(WebRequest(.get, server.url, maximumResponseSize: 100_000))
            XCTFail("too large")
        } catch let error as WebError {
            XCTAssertEqual(error.kind, .tooLarge, "\(error)")
        }
    }

    func testACancelledTaskStopsItsTransfer() async throws {
        let server = try await TestWebServer.start { _ in
            try? await Task.sleep(nanoseconds: 5_000_000_000)
            return TestWebServer.response(200)
        }
        defer { Task { await server.stop() } }
        let client = client
        let started = Date()
        let transfer = Task { try await client.send(WebRequest(.get, server.url, timeout: 30)) }
        try await Task.sleep(nanoseconds: 200_000_000)
        transfer.cancel()
        do {
            _ = try await transfer.value
            XCTFail("cancelled")
        } catch let error as WebError {
            XCTAssertEqual(error.kind, .cancelled)
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 3)
    }

    func testRetryAfterIsSecondsOrADate() {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        XCTAssertEqual(WebResponse(status: 429, headers: ["retry-after": "7"]).retryAfter(now: now), 7)
        XCTAssertEqual(WebResponse(status: 503, headers: ["retry-after": "Tue, 14 Nov 2023 22:13:40 GMT"]).retryAfter(now: now), 20)
        XCTAssertNil(WebResponse(status: 503, headers: ["retry-after": "soon"]).retryAfter(now: now))
        XCTAssertNil(WebResponse(status: 503).retryAfter(now: now))
    }

    func testRetriesBackOffExponentiallyAndStopWhereTheyCannotHelp() async throws {
        let waits = Waits()
        let policy = RetryPolicy(attempts: 5, baseDelay: 1, maximumDelay: 5, sleep: { waits.add($0) })
        XCTAssertEqual((1...5).map { policy.delay(after: $0, serverAsked: nil) }, [1, 2, 4, 5, 5])
        XCTAssertEqual(policy.delay(after: 1, serverAsked: 9), 9, "the server's own delay when it is longer")
        XCTAssertEqual(policy.delay(after: 1, serverAsked: 3600), 20, "but not an hour")

        let calls = Waits()
        do {
            _ = try await policy.run({ attempt -> Int in
                calls.add(Double(attempt))
                throw WebError(.timeout, url: "u", detail: "slow")
            }, decide: { _ in .retry(after: nil) })
            XCTFail("every attempt fails")
        } catch let error as WebError {
            XCTAssertEqual(error.kind, .timeout)
        }
        XCTAssertEqual(calls.all, [1, 2, 3, 4, 5])
        XCTAssertEqual(waits.all, [1, 2, 4, 5])

        let once = Waits()
        let value = try await policy.run({ attempt -> Int in
            once.add(Double(attempt))
            if attempt < 3 { throw WebError(.connection, url: "u", detail: "reset") }
            return 42
        }, decide: { _ in .retry(after: nil) })
        XCTAssertEqual(value, 42)
        XCTAssertEqual(once.all, [1, 2, 3])

        let final = Waits()
        do {
            _ = try await policy.run({ attempt -> Int in
                final.add(Double(attempt))
                throw WebError(.tls, url: "u", detail: "bad certificate")
            }, decide: { _ in .fail })
        } catch {}
        XCTAssertEqual(final.all, [1], "a failure retrying cannot help is not retried")
    }

    final class Waits: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [Double] = []
        func add(_ value: Double) { lock.withLock { values.append(value) } }
        var all: [Double] { lock.withLock { values } }
    }
}
