/// The media type of a published file, by its extension. Text types say their charset, since
/// the build writes UTF-8 and a browser guessing otherwise garbles names like "Zürich".
package enum ContentType {
    package static let html = "text/html; charset=utf-8"
    static let fallback = "application/octet-stream"

    static let byExtension: [String: String] = [
        "html": html, "htm": html,
        "css": "text/css; charset=utf-8",
        "js": "text/javascript; charset=utf-8", "mjs": "text/javascript; charset=utf-8",
        "json": "application/json; charset=utf-8",
        "webmanifest": "application/manifest+json; charset=utf-8",
        "map": "application/json; charset=utf-8",
        "xml": "application/xml; charset=utf-8",
        "atom": "application/atom+xml; charset=utf-8",
        "rss": "application/rss+xml; charset=utf-8",
        "txt": "text/plain; charset=utf-8",
        "svg": "image/svg+xml",
        "jpg": "image/jpeg", "jpeg": "image/jpeg",
        "png": "image/png", "gif": "image/gif",
        "webp": "image/webp", "avif": "image/avif",
        "ico": "image/x-icon",
        "woff": "font/woff", "woff2": "font/woff2",
        "dzi": "application/xml; charset=utf-8",
        "pdf": "application/pdf",
        "mp4": "video/mp4", "webm": "video/webm",
    ]

    /// The type for `fileName` ("index.html", "photo.JPG").
    package static func of(_ fileName: String) -> String {
        guard let dot = fileName.lastIndex(of: "."), dot != fileName.startIndex else { return fallback }
        return byExtension[fileName[fileName.index(after: dot)...].lowercased()] ?? fallback
    }

    package static func isHTML(_ type: String) -> Bool { type.hasPrefix("text/html") }
}
