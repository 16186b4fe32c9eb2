/// Why a request got no response.
public struct WebError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// No connection, or no complete answer, in time.
        case timeout
        case connectionRefused
        case hostNotFound
        /// The TLS handshake or the certificate failed.
        case tls
        /// The connection broke, or the answer was not HTTP.
        case connection
        /// The answer was larger than the request allowed.
        case tooLarge
        case cancelled
        case other
    }

    public var kind: Kind
    /// The address, without its query.
    public var url: String
    public var detail: String

    public init(_ kind: Kind, url: String, detail: String) {
        self.kind = kind
        self.url = url
        self.detail = detail
    }

    /// Whether trying again later may help.
    public var isTransient: Bool {
        switch kind {
        case .timeout, .connectionRefused, .connection: return true
        case .hostNotFound, .tls, .tooLarge, .cancelled, .other: return false
        }
    }

    public var description: String { "\(url): \(detail)" }
}
