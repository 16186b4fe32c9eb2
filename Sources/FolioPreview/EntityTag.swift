import Foundation

/// A published file's validator: strong, made of what changes whenever its bytes may have
/// (inode, size, modification time to the nanosecond). Unchanged renditions and pages are hard
/// links to the previous build's files, so they keep their tag across rebuilds and browsers
/// get 304s for them.
struct EntityTag: Equatable, Sendable {
    /// With the quotes, as it goes on the wire.
    let value: String

    init(value: String) { self.value = value }

    init(inode: UInt64, size: Int, modifiedNanoseconds: Int64, variant: String = "") {
        let hex = [UInt64(inode), UInt64(size), UInt64(bitPattern: modifiedNanoseconds)].map { String($0, radix: 16) }
        value = "\"\(hex.joined(separator: "-"))\(variant.isEmpty ? "" : "-\(variant)")\""
    }

    /// `If-None-Match`: weak comparison, so `W/"x"` matches `"x"` (RFC 9110 §13.1.2).
    package func matches(ifNoneMatch header: String) -> Bool {
        let trimmed = header.trimmingCharacters(in: .whitespaces)
        if trimmed == "*" { return true }
        return trimmed.split(separator: ",").contains { candidate in
            var tag = candidate.trimmingCharacters(in: .whitespaces)
            if tag.hasPrefix("W/") { tag.removeFirst(2) }
            return tag == value
        }
    }

    /// `If-Range` with a tag: strong comparison only (RFC 9110 §13.1.5).
    func matchesStrongly(_ header: String) -> Bool {
        header.trimmingCharacters(in: .whitespaces) == value
    }
}
