import FlyingSocks
import Foundation

/// One client's connection to the preview: requests read one after another (kept alive as the
/// client asks), each head through `RequestHeadReader`, each answered by the handler. A client
/// that sends nothing for a while is let go, so idle or trickling connections hold nothing.
struct PreviewConnection: Sendable {
    let socket: AsyncSocket
    let handler: PreviewHandler
    /// How long a client may take to send a request head, or stay quiet between two.
    let idleTimeout: TimeInterval
    /// A large file goes out in pieces of this size, read as they are sent.
    static let chunk = 256 * 1024

    func run() async {
        defer { try? socket.close() }
        // Nagle's algorithm would hold a response's body back until the client acknowledged its
        // head, delaying every request on a kept-alive connection.
        var on: Int32 = 1
        _ = setsockopt(socket.socket.file.rawValue, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        var buffer: [UInt8] = []
        var reader = RequestHeadReader()
        while !Task.isCancelled {
            let outcome = reader.read(buffer)
            switch outcome {
            case .incomplete:
                guard let bytes = await read(), !bytes.isEmpty else { return }
                buffer += bytes
            case .reject(let status, let reason):
                var response = PreviewHandler.plain(status, reason + "\n", head: false)
                response["Cache-Control"] = "no-store"
                _ = await send(response, head: false, keepAlive: false)
                return
            case .head(let request, let length):
                buffer.removeFirst(length)
                let response = await handler.respond(to: request)
                let keepAlive = request.keepsAlive && !request.hasBody
                guard await send(response, head: request.method == "HEAD", keepAlive: keepAlive), keepAlive else { return }
                if case .events = response.body { return }
            }
        }
    }

    /// The next bytes, or nil when the client is gone, errs or stays quiet too long.
    private func read() async -> [UInt8]? {
        let socket = socket, idleTimeout = idleTimeout
        return await withTaskGroup(of: [UInt8]?.self) { group in
            group.addTask { try? await socket.read(atMost: 16 * 1024) }
            group.addTask {
                try? await Task.sleep(nanoseconds: UInt64(idleTimeout * 1e9))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    /// Writes a response; false when the client is gone.
    private func send(_ response: PreviewResponse, head: Bool, keepAlive: Bool) async -> Bool {
        var streams = false
        if case .events = response.body { streams = true }
        do {
            try await socket.write(response.head(keepAlive: keepAlive && !streams))
            guard !head else { return true }
            switch response.body {
            case .data(let data):
                if !data.isEmpty { try await socket.write(data) }
            case .file(let file, let range):
                var offset = range.lowerBound
                while offset < range.upperBound {
                    let upper = min(range.upperBound, offset + Self.chunk)
                    try await socket.write(try file.read(offset..<upper))
                    offset = upper
                }
            case .events(let events):
                // Chunked, as a body of unknown length is in HTTP/1.1, until the tab goes (the
                // write fails) or the preview stops (the stream ends).
                for await event in events.stream {
                    try await socket.write(Data(String(event.count, radix: 16).utf8) + Data("\r\n".utf8) + event + Data("\r\n".utf8))
                }
                try await socket.write(Data("0\r\n\r\n".utf8))
                withExtendedLifetime(events.subscription) {}
            }
            return true
        } catch {
            return false
        }
    }
}
