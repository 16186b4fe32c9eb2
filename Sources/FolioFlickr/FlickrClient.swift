import FolioCore
import FolioNetwork
import Foundation

/// Flickr's REST API over a `WebClient`: one method call at a time, its faults retried with
/// back-off where a retry can help and told in one clear line where it cannot. The API key
/// travels in the query and nowhere else: never in an error, a log line, the model or `public/`.
public struct FlickrClient: Sendable {
    public static let defaultEndpoint = URL(string: "https://api.flickr.com/services/rest/")!

    public let endpoint: URL
    let apiKey: String
    let web: any WebClient
    let retry: RetryPolicy
    /// How long one answer may take.
    let timeout: TimeInterval
    /// Requests sent, retries included, for the summary.
    let requests = Counter()
    /// Said once per retry: what failed and how long until the next try.
    let onRetry: @Sendable (String) -> Void

    public init(endpoint: URL = FlickrClient.defaultEndpoint, apiKey: String, web: any WebClient = CurlWebClient(),
                retry: RetryPolicy = RetryPolicy(), timeout: TimeInterval = 60, onRetry: @escaping @Sendable (String) -> Void = { _ in }) {
        self.endpoint = endpoint
        self.apiKey = apiKey
        self.web = web
        self.retry = retry
        self.timeout = timeout
        self.onRetry = onRetry
    }

    /// Calls `method` and decodes its answer as `T`.
    func call<T: Decodable & Sendable>(_ method: String, _ parameters: [(String, String)] = [], as type: T.Type) async throws -> T {
        let request = WebRequest(.get, url(method, parameters), headers: [("Accept", "application/json")], timeout: timeout)
        return try await retry.run({ _ in
            requests.increment()
            let response: WebResponse
            do {
                response = try await web.send(request)
            } catch let error as WebError {
                throw FlickrError(method: method, kind: .network(error))
            }
            return try Self.decode(response, method: method, as: T.self)
        }, decide: { error in
            (error as? FlickrError)?.retry ?? .fail
        }, retrying: { error, wait in
            onRetry("\(error); trying again in \(Int(wait.rounded(.up))) s")
        })
    }

    /// The method's address. Every value percent-encoded but the unreserved characters: a "+"
    /// left as it is would reach Flickr as a space.
    func url(_ method: String, _ parameters: [(String, String)]) -> URL {
        var parts = URLComponents(url: endpoint, resolvingAgainstBaseURL: false)!
        let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        let items = [("method", method), ("api_key", apiKey), ("format", "json"), ("nojsoncallback", "1")] + parameters
        parts.percentEncodedQuery = items.map { name, value in
            "\(name)=\(value.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")"
        }.joined(separator: "&")
        return parts.url!
    }

    package static func decode<T: Decodable>(_ response: WebResponse, method: String, as type: T.Type) throws -> T {
        switch response.status {
        case 200..<300: break
        case 429: throw FlickrError(method: method, kind: .rateLimited(retryAfter: response.retryAfter()))
        default: throw FlickrError(method: method, kind: .http(response.status, retryAfter: response.retryAfter()))
        }
        let body = unwrappingJSONP(response.body)
        // Flickr's answers nest a few deep; Foundation's parser would call a deeper one "not valid
        // JSON", and be asked again.
        if let position = NestingScan.json(body) {
            throw FlickrError(method: method, kind: .unexpected("arrays and objects nested more than \(ReadingLimits.nesting) deep, at \(position)"))
        }
        guard let failure = try? JSONDecoder().decode(FlickrFailure.self, from: body) else {
            throw FlickrError(method: method, kind: .malformed(Self.describe(body)))
        }
        guard failure.stat == "ok" else {
            throw FlickrError(method: method, kind: .api(code: failure.code?.int ?? 0, message: failure.message ?? "no message"))
        }
        do {
            return try JSONDecoder().decode(T.self, from: body)
        } catch {
            throw FlickrError(method: method, kind: .unexpected("\(error)"))
        }
    }

    /// `jsonFlickrApi({…})`, which Flickr sends when `nojsoncallback` is lost on the way, as
    /// the JSON inside it.
    static func unwrappingJSONP(_ body: Data) -> Data {
        let prefix = Data("jsonFlickrApi(".utf8)
        var trimmed = body
        while let first = trimmed.first, first == 0x20 || first == 0x0A || first == 0x0D || first == 0x09 { trimmed.removeFirst() }
        guard trimmed.starts(with: prefix) else { return body }
        var inner = trimmed.dropFirst(prefix.count)
        while let last = inner.last, last == 0x20 || last == 0x0A || last == 0x0D || last == 0x3B { inner.removeLast() }
        if inner.last == 0x29 { inner.removeLast() }  // ")"
        return Data(inner)
    }

    /// What a body that is not JSON looks like, in a few words.
    static func describe(_ body: Data) -> String {
        if body.isEmpty { return "an empty answer" }
        let start = String(decoding: body.prefix(40), as: UTF8.self).replacingOccurrences(of: "\n", with: " ")
        return "\(body.count) bytes that are not complete JSON, starting \"\(CleanText.line(start))\""
    }

    /// Counts from many tasks at once.
    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func increment() { lock.withLock { count += 1 } }
        var value: Int { lock.withLock { count } }
    }
}

/// Why a Flickr call failed, in one line that names the method and never the key.
public struct FlickrError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable {
        /// `"stat": "fail"`, with Flickr's code and message.
        case api(code: Int, message: String)
        case rateLimited(retryAfter: TimeInterval?)
        case http(Int, retryAfter: TimeInterval?)
        case network(WebError)
        /// Not JSON, or cut short.
        case malformed(String)
        /// JSON, but not the shape the method answers with.
        case unexpected(String)
    }

    public var method: String
    public var kind: Kind

    /// Whether and when to try again.
    var retry: RetryPolicy.Decision {
        switch kind {
        // 105: service unavailable; 106: write failed; 0 and 10: temporary faults.
        case .api(let code, _): return [0, 10, 105, 106].contains(code) ? .retry(after: nil) : .fail
        case .rateLimited(let after): return .retry(after: after)
        case .http(let status, let after): return status >= 500 ? .retry(after: after) : .fail
        case .network(let error): return error.isTransient || error.kind == .hostNotFound ? .retry(after: nil) : .fail
        case .malformed: return .retry(after: nil)
        case .unexpected: return .fail
        }
    }

    /// The key itself was refused: nothing else will work either.
    public var isInvalidKey: Bool {
        if case .api(100, _) = kind { return true }
        return false
    }

    public var description: String {
        switch kind {
        case .api(100, let message):
            return "Flickr refused the API key (\(message)); check --api-key or FLICKR_API_KEY"
        case .api(let code, let message): return "Flickr \(method): \(message) (code \(code))"
        case .rateLimited: return "Flickr \(method): too many requests (HTTP 429)"
        case .http(let status, _): return "Flickr \(method): HTTP \(status)"
        case .network(let error): return "Flickr \(method): \(error)"
        case .malformed(let detail): return "Flickr \(method): \(detail)"
        case .unexpected(let detail): return "Flickr \(method): an answer of an unexpected shape (\(detail))"
        }
    }
}
