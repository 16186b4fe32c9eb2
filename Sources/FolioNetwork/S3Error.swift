/// What a bucket answered instead of doing what was asked: its HTTP status, S3's error code
/// ("AccessDenied", "NoSuchBucket") and message, and the object it was about.
public struct S3Error: Error, Sendable, Equatable, CustomStringConvertible {
    public var status: Int
    public var code: String
    public var message: String
    /// The object key, or the bucket's name for a request about the bucket.
    public var key: String

    public init(status: Int, code: String, message: String, key: String) {
        self.status = status
        self.code = code
        self.message = message
        self.key = key
    }

    /// The credentials themselves were refused: no point trying anything else.
    public var isCredentials: Bool {
        ["InvalidAccessKeyId", "SignatureDoesNotMatch", "InvalidClientTokenId", "ExpiredToken", "InvalidToken",
         "TokenRefreshRequired", "AuthorizationHeaderMalformed"].contains(code)
    }

    /// Whether trying again later may help: the server's trouble, or a request to slow down.
    public var isTransient: Bool {
        status >= 500 || status == 429 || ["SlowDown", "RequestTimeout", "RequestTimeTooSkewed", "InternalError"].contains(code)
    }

    public var description: String {
        if isCredentials {
            return "the bucket refused the credentials (\(code)): check AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or AWS_PROFILE)"
        }
        if code == "NoSuchBucket" { return "\(key): no such bucket" }
        if code == "AccessDenied" { return "\(key): access denied (HTTP \(status)): the credentials may not write to this bucket" }
        let detail = message.isEmpty ? "" : ": \(message)"
        return "\(key): \(code.isEmpty ? "HTTP \(status)" : "\(code) (HTTP \(status))")\(detail)"
    }
}
