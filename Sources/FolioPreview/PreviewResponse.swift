import Foundation

/// What the preview answers: a status, headers in the order set, and a body that is bytes in
/// hand, a range of a file read as it is sent, or a tab's live-reload event stream.
struct PreviewResponse: Sendable {
    enum Body: Sendable {
        case data(Data)
        case file(PublicFile, Range<Int>)
        /// Sent as events come, until the client goes; the connection ends with it.
        case events(EventStreamBody)
    }

    var status: Int
    private(set) var headers: [(name: String, value: String)] = []
    var body: Body

    init(status: Int, body: Body = .data(Data())) {
        self.status = status
        self.body = body
    }

    /// Sets a header (replacing one of the same name), or removes it with nil.
    subscript(name: String) -> String? {
        get { headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value }
        set {
            headers.removeAll { $0.name.caseInsensitiveCompare(name) == .orderedSame }
            if let newValue { headers.append((name, newValue)) }
        }
    }

    static let reasons: [Int: String] = [
        200: "OK", 206: "Partial Content", 301: "Moved Permanently", 304: "Not Modified", 400: "Bad Request",
        403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed", 408: "Request Timeout", 414: "URI Too Long",
        416: "Range Not Satisfiable", 431: "Request Header Fields Too Large", 500: "Internal Server Error",
        505: "HTTP Version Not Supported",
    ]

    /// The status line and headers, as sent.
    func head(keepAlive: Bool) -> Data {
        var text = "HTTP/1.1 \(status) \(Self.reasons[status] ?? "Status")\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        text += keepAlive ? "Connection: keep-alive\r\n" : "Connection: close\r\n"
        return Data((text + "\r\n").utf8)
    }
}
