import FolioCore
import Foundation

/// AWS Signature Version 4, done by Folio: the canonical request, the string to sign, the
/// signing key derived by HMAC from the secret, the `Authorization` header. Written here rather
/// than left to curl's CURLOPT_AWS_SIGV4 so that each stage can be tested against AWS's
/// published test suite, and so the payload hash is one Folio computed of what it sends.
///
/// Paths are signed as sent (S3 neither normalises nor double-encodes them): callers give
/// URLs whose paths are already percent-encoded.
public struct SigV4Signer: Sendable {
    public var credentials: S3Credentials
    public var region: String
    public var service: String

    public init(credentials: S3Credentials, region: String, service: String = "s3") {
        self.credentials = credentials
        self.region = region
        self.service = service
    }

    /// `request`, with `x-amz-date`, `x-amz-security-token` (with a session token) and
    /// `Authorization` added; every header it carries is signed, and `host` from its URL.
    public func sign(_ request: WebRequest, payloadHash: String, date: Date) -> WebRequest {
        var request = request
        request.headers.append(("X-Amz-Date", Self.timestamp(date)))
        if let token = credentials.sessionToken { request.headers.append(("X-Amz-Security-Token", token)) }
        let (canonical, signed) = canonicalRequest(request, payloadHash: payloadHash)
        let scope = "\(Self.timestamp(date).prefix(8))/\(region)/\(service)/aws4_request"
        let toSign = stringToSign(canonical, date: date)
        let signature = HMAC.sha256(key: signingKey(day: String(Self.timestamp(date).prefix(8))), toSign).hexText
        request.headers.append(("Authorization",
                                "AWS4-HMAC-SHA256 Credential=\(credentials.accessKey)/\(scope), SignedHeaders=\(signed), Signature=\(signature)"))
        return request
    }

    /// The canonical request and the names of the signed headers, ";"-joined.
    public func canonicalRequest(_ request: WebRequest, payloadHash: String) -> (text: String, signedHeaders: String) {
        var headers: [String: [String]] = [:]
        headers["host"] = [Self.host(of: request.url)]
        for (name, value) in request.headers {
            headers[name.lowercased(), default: []].append(Self.trimmed(value))
        }
        let names = headers.keys.sorted()
        let canonicalHeaders = names.map { "\($0):\(headers[$0]!.joined(separator: ","))\n" }.joined()
        let signed = names.joined(separator: ";")
        let components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
        let path = components?.percentEncodedPath ?? "/"
        let text = [
            request.method.rawValue, path.isEmpty ? "/" : path, Self.canonicalQuery(components?.percentEncodedQuery),
            canonicalHeaders, signed, payloadHash,
        ].joined(separator: "\n")
        return (text, signed)
    }

    public func stringToSign(_ canonicalRequest: String, date: Date) -> String {
        let time = Self.timestamp(date)
        return ["AWS4-HMAC-SHA256", time, "\(time.prefix(8))/\(region)/\(service)/aws4_request",
                SHA256.hex(Data(canonicalRequest.utf8))].joined(separator: "\n")
    }

    func signingKey(day: String) -> [UInt8] {
        let date = HMAC.sha256(key: Array("AWS4\(credentials.secretKey)".utf8), day)
        let region = HMAC.sha256(key: date, self.region)
        let service = HMAC.sha256(key: region, self.service)
        return HMAC.sha256(key: service, "aws4_request")
    }

    /// "20150830T123600Z".
    public static func timestamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return formatter.string(from: date)
    }

    /// The Host header as curl sends it: the port only when it is not the scheme's own.
    static func host(of url: URL) -> String {
        let host = url.host ?? ""
        guard let port = url.port, port != (url.scheme == "https" ? 443 : 80) else { return host }
        return "\(host):\(port)"
    }

    /// Leading and trailing space removed, runs of spaces made one.
    static func trimmed(_ value: String) -> String {
        value.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
            .trimmingCharacters(in: .whitespaces)
    }

    /// Each name and value decoded, then encoded as AWS asks (everything but RFC 3986's
    /// unreserved characters), sorted by name and then value; a name with no value gets "".
    static func canonicalQuery(_ query: String?) -> String {
        guard let query, !query.isEmpty else { return "" }
        let pairs = query.split(separator: "&").map { part -> (String, String) in
            let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decoded(_ text: Substring) -> String { String(text).removingPercentEncoding ?? String(text) }
            return (encode(decoded(pieces[0])), pieces.count > 1 ? encode(decoded(pieces[1])) : "")
        }
        return pairs.sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
    }

    /// Percent-encodes all but A-Z a-z 0-9 - . _ ~ (and "/" when `keepingSlashes`): how S3 wants
    /// object keys in paths and every query name and value.
    public static func encode(_ text: String, keepingSlashes: Bool = false) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: "/") where keepingSlashes:
                out += "/"
            default:
                out += String(format: "%%%02X", byte)
            }
        }
        return out
    }
}
