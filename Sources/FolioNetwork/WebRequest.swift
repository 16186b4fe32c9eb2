import Foundation

/// One HTTP request, as Folio's clients (Flickr, S3) make them.
public struct WebRequest: Sendable {
    public enum Method: String, Sendable {
        case get = "GET", head = "HEAD", put = "PUT", post = "POST", delete = "DELETE"
    }

    public var method: Method
    public var url: URL
    /// In the order given; a name may repeat.
    public var headers: [(name: String, value: String)]
    public var body: Data?
    /// How long to wait for a connection, and for the whole exchange.
    public var connectTimeout: TimeInterval
    public var timeout: TimeInterval
    /// A response body larger than this is refused: a misbehaving server cannot fill memory.
    public var maximumResponseSize: Int

    public init(_ method: Method = .get, _ url: URL, headers: [(name: String, value: String)] = [], body: Data? = nil,
                connectTimeout: TimeInterval = 10, timeout: TimeInterval = 60, maximumResponseSize: Int = 64 << 20) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.connectTimeout = connectTimeout
        self.timeout = timeout
        self.maximumResponseSize = maximumResponseSize
    }

    /// The address as messages may show it: without its query, where API keys and signatures
    /// travel.
    public var shownURL: String { WebRequest.shown(url) }

    static func shown(_ url: URL) -> String {
        guard var parts = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return "(an address)" }
        parts.query = nil
        parts.user = nil
        parts.password = nil
        return parts.string ?? "(an address)"
    }
}
