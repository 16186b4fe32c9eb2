import Foundation
import XCTest

/// Plain HTTP/1.1 over a socket, for talking to the preview exactly as written: URL clients
/// tidy `..` and `%2e%2e` away before sending, and the point is to send them. Blocking calls run
/// on a thread of their own, off the pool the server under test answers on.
enum PreviewTestClient {
    struct Response {
        var status: Int
        var headers: [String: String]
        var body: Data
        var text: String { String(decoding: body, as: UTF8.self) }
        func header(_ name: String) -> String? { headers[name.lowercased()] }
    }

    static func request(port: UInt16, _ target: String, method: String = "GET",
                        headers: [String: String] = [:], timeout: TimeInterval = 10) async throws -> Response {
        try await offThePool {
            let socket = try connect(port: port, timeout: timeout)
            defer { close(socket) }
            var head = "\(method) \(target) HTTP/1.1\r\nConnection: close\r\n"
            for (name, value) in ["Host": "127.0.0.1:\(port)"].merging(headers, uniquingKeysWith: { $1 }) {
                head += "\(name): \(value)\r\n"
            }
            try send(socket, Data((head + "\r\n").utf8))
            var received = Data()
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = recv(socket, &buffer, buffer.count, 0)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                received.append(contentsOf: buffer[..<count])
            }
            return try parse(received, method: method)
        }
    }

    /// Sends `text` as it is and returns all the server sends back until it closes.
    static func raw(port: UInt16, _ text: String, timeout: TimeInterval = 10) async throws -> String {
        try await offThePool {
            let socket = try connect(port: port, timeout: timeout)
            defer { close(socket) }
            if !text.isEmpty { try send(socket, Data(text.utf8)) }
            var received = Data()
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = recv(socket, &buffer, buffer.count, 0)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                received.append(contentsOf: buffer[..<count])
            }
            return String(decoding: received, as: UTF8.self)
        }
    }

    static func parse(_ data: Data, method: String) throws -> Response {
        guard let end = data.range(of: Data("\r\n\r\n".utf8)) else {
            throw FolioTestError("no complete response head in \(data.count) bytes")
        }
        let lines = String(decoding: data[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let status = Int(lines[0].split(separator: " ")[1]) ?? 0
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body = Data(data[end.upperBound...])
        if headers["transfer-encoding"] == "chunked" { body = try dechunk(body) }
        if method == "HEAD" { XCTAssertEqual(body.count, 0, "HEAD must have no body") }
        return Response(status: status, headers: headers, body: body)
    }

    static func dechunk(_ data: Data) throws -> Data {
        var out = Data()
        var rest = data[...]
        while let line = rest.range(of: Data("\r\n".utf8)) {
            let size = Int(String(decoding: rest[..<line.lowerBound], as: UTF8.self), radix: 16) ?? 0
            rest = rest[line.upperBound...]
            if size == 0 { break }
            out.append(rest.prefix(size))
            rest = rest.dropFirst(size + 2)
        }
        return out
    }

    static func connect(port: UInt16, timeout: TimeInterval) throws -> Int32 {
        #if canImport(Darwin)
        let socket = Darwin.socket(AF_INET, SOCK_STREAM, 0)
        #else
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #endif
        guard socket >= 0 else { throw FolioTestError("socket: \(errno)") }
        var wait = timeval(tv_sec: Int(timeout), tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                #if canImport(Darwin)
                Darwin.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                #else
                Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                #endif
            }
        }
        guard result == 0 else { close(socket); throw FolioTestError("connect to port \(port): errno \(errno)") }
        return socket
    }

    static func send(_ socket: Int32, _ data: Data) throws {
        try data.withUnsafeBytes { bytes in
            var sent = 0
            while sent < bytes.count {
                #if canImport(Darwin)
                let count = Darwin.send(socket, bytes.baseAddress! + sent, bytes.count - sent, 0)
                #else
                let count = Glibc.send(socket, bytes.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
                #endif
                guard count > 0 else { throw FolioTestError("send: errno \(errno)") }
                sent += count
            }
        }
    }

    /// Runs blocking work on a new thread and waits for it without holding a pool thread.
    static func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }
}

/// One client's `/__folio/events` stream, read event by event.
final class PreviewEventClient: @unchecked Sendable {
    struct Event: Equatable {
        var name: String
        var data: String
    }

    private let socket: Int32
    private var buffer = Data()
    private var headRead = false
    private var text = ""

    init(port: UInt16) async throws {
        socket = try await PreviewTestClient.offThePool {
            let socket = try PreviewTestClient.connect(port: port, timeout: 1)
            try PreviewTestClient.send(socket, Data("GET /__folio/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".utf8))
            return socket
        }
    }

    deinit { close(socket) }

    /// The next event called `name` (others are skipped), or an error after `timeout`.
    func next(_ name: String, timeout: TimeInterval = 20) async throws -> Event {
        let deadline = Date().addingTimeInterval(timeout)
        return try await PreviewTestClient.offThePool { [self] in
            var seen: [String] = []
            while Date() < deadline {
                while let event = takeEvent() {
                    if event.name == name { return event }
                    seen.append(event.name)
                }
                var chunk = [UInt8](repeating: 0, count: 4096)
                let count = recv(socket, &chunk, chunk.count, 0)
                if count > 0 { feed(Data(chunk[..<count])) } else if count == 0 { throw FolioTestError("event stream closed") }
            }
            throw FolioTestError("no '\(name)' event within \(timeout) s; saw \(seen)")
        }
    }

    /// Strips the response head and the chunked framing, keeping the event text.
    private func feed(_ data: Data) {
        buffer.append(data)
        if !headRead {
            guard let head = buffer.range(of: Data("\r\n\r\n".utf8)) else { return }
            buffer = Data(buffer[head.upperBound...])
            headRead = true
        }
        while let line = buffer.range(of: Data("\r\n".utf8)),
              let size = Int(String(decoding: buffer[..<line.lowerBound], as: UTF8.self), radix: 16),
              buffer.count >= line.upperBound + size + 2 {
            text += String(decoding: buffer[line.upperBound..<(line.upperBound + size)], as: UTF8.self)
            buffer = Data(buffer[(line.upperBound + size + 2)...])
        }
    }

    /// One event block off the text; comments and `retry:` give an event with no name.
    private func takeEvent() -> Event? {
        guard let end = text.range(of: "\n\n") else { return nil }
        let block = text[..<end.lowerBound]
        text = String(text[end.upperBound...])
        var event = Event(name: "", data: "")
        for line in block.split(separator: "\n") {
            if line.hasPrefix("event:") { event.name = line.dropFirst(6).trimmingCharacters(in: .whitespaces) }
            if line.hasPrefix("data:") { event.data += line.dropFirst(5).trimmingCharacters(in: .whitespaces) }
        }
        if event.name.isEmpty && !event.data.isEmpty { event.name = "message" }
        return event
    }
}

struct FolioTestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
