import Foundation

/// A request's head as the preview reads it: the request line and the headers. The preview
/// answers GET and HEAD, so a body is never read; a request that has one ends its connection.
public struct RequestHead: Sendable, Equatable {
    public var method: String
    /// The target's path, still percent-encoded, starting with "/".
    public var path: String
    /// The target's query, still percent-encoded, without the "?".
    public var query: String
    public var version: String
    /// Names lowercased, in the order sent.
    public var headers: [Header]

    public struct Header: Sendable, Equatable {
        public var name: String
        public var value: String
    }

    /// The first value of a header.
    func header(_ name: String) -> String? {
        let name = name.lowercased()
        return headers.first { $0.name == name }?.value
    }

    /// Whether the client wants the connection kept for another request.
    var keepsAlive: Bool {
        let connection = header("connection")?.lowercased() ?? ""
        return version == "HTTP/1.1" ? !connection.contains("close") : connection.contains("keep-alive")
    }

    /// Whether a body follows the head.
    var hasBody: Bool {
        header("transfer-encoding") != nil || (header("content-length").flatMap { Int($0) } ?? 0) > 0
    }
}

/// Finds and reads a request head in bytes that arrive in pieces: each byte is looked at once,
/// whatever the head's length, and the head may not grow past the limits (a request line of
/// 8 KiB, a head of 32 KiB, 100 headers), which are answered 414 and 431. An HTTP version other
/// than 1.0 and 1.1 is answered 505; anything else malformed, 400.
public struct RequestHeadReader {
    static let maximumRequestLine = 8 * 1024
    static let maximumHead = 32 * 1024
    static let maximumHeaders = 100

    public enum Outcome: Equatable {
        /// More bytes are needed.
        case incomplete
        /// A head, and how many bytes of the buffer it took.
        case head(RequestHead, length: Int)
        /// A status to answer with, then close.
        case reject(status: Int, reason: String)
    }

    /// Where the search for the head's end goes on from: no byte is scanned twice.
    private var scanned = 0
    /// Where the request line ends, once seen.
    private var lineEnd: Int?

    /// Looks at `buffer`, which holds the bytes received so far (its start is the head's start).
    public init() {}

    public mutating func read(_ buffer: [UInt8]) -> Outcome {
        while scanned < buffer.count {
            if buffer[scanned] == 0x0A {  // LF: a line ends (CRLF, or a bare LF)
                if lineEnd == nil { lineEnd = scanned }
                let previous = scanned > 0 && buffer[scanned - 1] == 0x0D ? scanned - 1 : scanned
                // An empty line ends the head.
                if previous > 0, buffer[previous - 1] == 0x0A {
                    let length = scanned + 1
                    scanned = 0
                    lineEnd = nil
                    return Self.parse(Array(buffer[..<length]), length: length)
                }
            }
            scanned += 1
            if lineEnd == nil, scanned > Self.maximumRequestLine {
                return .reject(status: 414, reason: "The request line is longer than \(Self.maximumRequestLine) bytes.")
            }
            if scanned > Self.maximumHead {
                return .reject(status: 431, reason: "The request's headers are larger than \(Self.maximumHead) bytes.")
            }
        }
        return .incomplete
    }

    static func parse(_ bytes: [UInt8], length: Int) -> Outcome {
        // Lines split on the bytes: to Swift, "\r\n" is one Character, not two.
        var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { line in
            String(decoding: line.last == 0x0D ? line.dropLast() : line, as: UTF8.self)[...]
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        guard let requestLine = lines.first else { return .reject(status: 400, reason: "No request line.") }
        let parts = requestLine.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, parts[0].allSatisfy(isToken) else {
            return .reject(status: 400, reason: "The request line is not METHOD TARGET VERSION.")
        }
        let version = String(parts[2])
        guard version.hasPrefix("HTTP/") else { return .reject(status: 400, reason: "The request line has no HTTP version.") }
        guard version == "HTTP/1.1" || version == "HTTP/1.0" else {
            return .reject(status: 505, reason: "Only HTTP/1.0 and HTTP/1.1 are spoken here.")
        }
        var target = Substring(parts[1])
        // absolute-form (a proxy's): only its path and query matter here.
        if target.hasPrefix("http://") || target.hasPrefix("https://"), let scheme = target.range(of: "://") {
            let afterScheme = target[scheme.upperBound...]
            target = afterScheme.firstIndex(of: "/").map { afterScheme[$0...] } ?? "/"
        }
        guard target.hasPrefix("/"), !target.contains(where: { $0.isWhitespace || $0 == "#" }) else {
            return .reject(status: 400, reason: "The request target is not a path.")
        }
        let question = target.firstIndex(of: "?")
        var headers: [RequestHead.Header] = []
        for line in lines.dropFirst() {
            guard headers.count < maximumHeaders else {
                return .reject(status: 431, reason: "More than \(maximumHeaders) headers.")
            }
            guard let colon = line.firstIndex(of: ":"), line.first.map(isToken) == true,
                  line[..<colon].allSatisfy(isToken) else {
                return .reject(status: 400, reason: "A header line is malformed.")
            }
            headers.append(RequestHead.Header(
                name: line[..<colon].lowercased(),
                value: line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        return .head(RequestHead(
            method: String(parts[0]),
            path: String(question.map { target[..<$0] } ?? target),
            query: question.map { String(target[target.index(after: $0)...]) } ?? "",
            version: version, headers: headers), length: length)
    }

    /// RFC 9110's token characters.
    static func isToken(_ character: Character) -> Bool {
        guard let ascii = character.asciiValue, ascii > 32, ascii < 127 else { return false }
        return !"\"(),/:;<=>?@[\\]{}".contains(character)
    }
}
