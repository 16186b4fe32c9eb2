/// HMAC-SHA256 (RFC 2104), the keyed hash AWS Signature Version 4 derives its signing key and
/// its signature with; tested against RFC 4231's vectors.
public enum HMAC {
    public static func sha256(key: [UInt8], _ message: [UInt8]) -> [UInt8] {
        var key = key.count > 64 ? SHA256.hash(key) : key
        key += [UInt8](repeating: 0, count: 64 - key.count)
        var inner = SHA256()
        inner.update(key.map { $0 ^ 0x36 })
        inner.update(message)
        var outer = SHA256()
        outer.update(key.map { $0 ^ 0x5c })
        outer.update(inner.finish())
        return outer.finish()
    }

    public static func sha256(key: [UInt8], _ message: String) -> [UInt8] {
        sha256(key: key, Array(message.utf8))
    }
}
