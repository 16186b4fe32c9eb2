import FolioCore
import Foundation

/// The path of a request, checked before it goes anywhere near the file system: split on the
/// raw (still percent-encoded) slashes, each segment decoded on its own. A segment that decodes
/// to `..` or `.`, or to anything holding a slash, a backslash or NUL, makes the whole request
/// bad: an encoded `%2e%2e` or `%2f` must never become a way out of `public/`.
struct RequestPath: Sendable, Equatable {
    /// Decoded segments, none empty, none a dot segment.
    var segments: [String]
    /// Whether the request named a folder (`/places/`), which decides the trailing-slash redirect.
    var endsWithSlash: Bool

    init(segments: [String], endsWithSlash: Bool) {
        self.segments = segments
        self.endsWithSlash = endsWithSlash
    }

    /// `raw` is the request target's path exactly as it came over the wire.
    init(raw: String) throws {
        guard raw.hasPrefix("/") else {
            throw FolioError(path: raw, reason: "a request path must start with /")
        }
        var segments: [String] = []
        for encoded in raw.split(separator: "/", omittingEmptySubsequences: true) {
            guard let decoded = String(encoded).removingPercentEncoding else {
                throw FolioError(path: raw, reason: "malformed percent-encoding")
            }
            if decoded == "." || decoded == ".." {
                throw FolioError(path: raw, reason: "dot segments are not allowed")
            }
            if decoded.contains(where: { $0 == "/" || $0 == "\\" || $0 == "\0" }) {
                throw FolioError(path: raw, reason: "a path segment may not hold /, \\ or NUL")
            }
            segments.append(decoded)
        }
        self.segments = segments
        endsWithSlash = raw.hasSuffix("/")
    }

    /// The path relative to `public/`.
    var relative: String { segments.joined(separator: "/") }

    /// The canonical form of this folder's URL, for the trailing-slash redirect. Built from the
    /// checked segments, so it always starts with exactly one slash (never `//host`).
    var folderURLPath: String {
        let allowed = CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: "/?#;"))
        let encoded = segments.map { $0.addingPercentEncoding(withAllowedCharacters: allowed) ?? $0 }
        return "/" + encoded.map { $0 + "/" }.joined()
    }
}
