import FlyingFox
import Foundation

/// Answers every request of the preview: the live-reload event stream, and the files of
/// `public/` with the HTTP a browser expects of a real server (types, folders' index pages,
/// a 404 page, HEAD, ranges, validators and cache headers), so what the preview shows is what
/// static hosting will show. Nothing outside `public/` is ever read.
struct PreviewHandler: HTTPHandler {
    let folder: PublicFolder
    let channel: LiveReloadChannel
    /// Files up to this size are read whole; larger ones are streamed from their descriptor.
    static let streamingThreshold = 512 * 1024
    static let immutable = "public, max-age=31536000, immutable"

    func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
        let isHead = request.method == .HEAD
        guard request.method == .GET || isHead else {
            var response = Self.plain(.methodNotAllowed, "Only GET and HEAD are served here.\n", head: false)
            response.headers[HTTPHeader("Allow")] = "GET, HEAD"
            return response
        }
        let raw = request.target.path(percentEncoded: true)
        if raw == LiveReloadScript.eventsPath {
            return events(head: isHead)
        }
        let path: RequestPath
        do {
            path = try RequestPath(raw: raw)
        } catch {
            return Self.plain(.badRequest, "Bad request: \(error)\n", head: isHead)
        }
        if path.segments.first == "__folio" {
            return await notFound(path, head: isHead)
        }
        switch await resolve(path) {
        case .file(let file):
            return try serve(file, request: request, head: isHead)
        case .folderWithoutSlash:
            var location = Self.origin(host: request.headers[.host]) + path.folderURLPath
            let query = request.target.query(percentEncoded: true)
            if !query.isEmpty { location += "?" + query }
            var response = Self.plain(.movedPermanently, "Moved to \(location)\n", head: isHead)
            response.headers[.location] = location
            // A preview's folders may become files: do not let the browser keep the redirect.
            response.headers[.cacheControl] = "no-cache"
            return response
        case .outside:
            return Self.plain(.forbidden, "Forbidden: that path leads outside public/.\n", head: isHead)
        case .notFound:
            return await notFound(path, head: isHead)
        }
    }

    /// While a build swaps the new site in, a file can be missing for a few microseconds;
    /// a request landing then waits a moment rather than get a 404 for a file that exists.
    private func resolve(_ path: RequestPath) async -> PublicFolder.Resolution {
        var resolution = folder.resolve(path)
        var tries = 0
        while case .notFound = resolution, tries < 5, channel.current.building {
            try? await Task.sleep(nanoseconds: 20_000_000)
            resolution = folder.resolve(path)
            tries += 1
        }
        return resolution
    }

    private func events(head: Bool) -> HTTPResponse {
        var headers = HTTPHeaders()
        headers[.contentType] = "text/event-stream; charset=utf-8"
        headers[.cacheControl] = "no-store"
        if head { return HTTPResponse(statusCode: .ok, headers: headers) }
        return HTTPResponse(statusCode: .ok, headers: headers, body: HTTPBodySequence(from: channel.subscribe()))
    }

    private func serve(_ file: PublicFile, request: HTTPRequest, head: Bool) throws -> HTTPResponse {
        let type = ContentType.of(file.path)
        let isPage = ContentType.isHTML(type)
        let tag = EntityTag(inode: file.inode, size: file.size, modifiedNanoseconds: file.modifiedNanoseconds,
                            variant: isPage ? "lr" + LiveReloadScript.version : "")
        var headers = HTTPHeaders()
        headers[.date] = HTTPDate.now()
        headers[.contentType] = type
        headers[.eTag] = tag.value
        headers[.lastModified] = HTTPDate.format(file.modifiedSeconds)
        // Media are named by their content: a name never changes meaning. Everything else
        // (pages, CSS, the feed) keeps its name across builds, so it is checked every time.
        headers[.cacheControl] = file.relative.hasPrefix("media/") ? Self.immutable : "no-cache"
        headers[HTTPHeader("X-Content-Type-Options")] = "nosniff"

        if notModified(request, tag: tag, modified: file.modifiedSeconds) {
            // What a 200 would say (RFC 9110 §8.6), the script included for pages.
            headers[.contentLength] = String(file.size + (isPage ? LiveReloadScript.tag.count : 0))
            return HTTPResponse(statusCode: .notModified, headers: headers)
        }

        if isPage {
            // Pages get the live-reload script, so they are never served in parts.
            if head { return Self.response(.ok, headers, body: Data(), head: true, length: file.size + LiveReloadScript.tag.count) }
            return Self.response(.ok, headers, body: LiveReloadScript.inject(into: try file.read(0..<file.size)), head: false)
        }

        headers[.acceptRanges] = "bytes"
        var range = head ? ByteRange.whole : ByteRange(header: request.headers[.range], size: file.size)
        if range != .whole, let ifRange = request.headers[HTTPHeader("If-Range")], !rangeStillValid(ifRange, tag: tag, file: file) {
            range = .whole
        }
        switch range {
        case .unsatisfiable:
            headers[.contentRange] = "bytes */\(file.size)"
            headers[.contentType] = nil
            return Self.response(.rangeNotSatisfiable, headers, body: Data(), head: head)
        case .part(let part):
            headers[.contentRange] = "bytes \(part.lowerBound)-\(part.upperBound - 1)/\(file.size)"
            return try body(of: file, part, status: .partialContent, headers: headers, head: head)
        case .whole:
            return try body(of: file, 0..<file.size, status: .ok, headers: headers, head: head)
        }
    }

    private func body(of file: PublicFile, _ range: Range<Int>, status: HTTPStatusCode, headers: HTTPHeaders, head: Bool) throws -> HTTPResponse {
        if head || range.count <= Self.streamingThreshold {
            return Self.response(status, headers, body: head ? Data() : try file.read(range), head: head, length: range.count)
        }
        return HTTPResponse(statusCode: status, headers: headers,
                            body: HTTPBodySequence(from: FileBodySequence(file: file, range: range), count: range.count,
                                                   suggestedBufferSize: FileBodySequence.chunk))
    }

    /// RFC 9110 §13.2.2: If-None-Match wins over If-Modified-Since when both are sent.
    private func notModified(_ request: HTTPRequest, tag: EntityTag, modified: Int) -> Bool {
        if let ifNoneMatch = request.headers[.ifNoneMatch] {
            return tag.matches(ifNoneMatch: ifNoneMatch)
        }
        if let since = request.headers[.ifModifiedSince].flatMap(HTTPDate.parse) {
            return modified <= since
        }
        return false
    }

    private func rangeStillValid(_ ifRange: String, tag: EntityTag, file: PublicFile) -> Bool {
        let value = ifRange.trimmingCharacters(in: .whitespaces)
        if value.hasPrefix("\"") || value.hasPrefix("W/") { return tag.matchesStrongly(value) }
        return HTTPDate.parse(value) == file.modifiedSeconds
    }

    /// The site's own `404.html` when it has one, else a small page of ours; with the
    /// live-reload script, so a page that does not exist yet appears once a build makes it.
    private func notFound(_ path: RequestPath, head: Bool) async -> HTTPResponse {
        var headers = HTTPHeaders()
        headers[.date] = HTTPDate.now()
        headers[.contentType] = ContentType.html
        headers[.cacheControl] = "no-store"
        let page: Data
        if let custom = folder.topLevelFile("404.html"), let bytes = try? custom.read(0..<custom.size) {
            page = bytes
        } else {
            let shown = "/" + path.relative
            page = Data("""
                <!DOCTYPE html>
                <html lang="en"><head><meta charset="utf-8"><title>Not found</title></head>
                <body><h1>Not found</h1><p>Nothing in public/ answers to <code>\(Self.escape(shown))</code>.</p>
                <p><a href="/">The site's home page</a></p></body></html>

                """.utf8)
        }
        return Self.response(.notFound, headers, body: LiveReloadScript.inject(into: page), head: head)
    }

    /// `http://host:port` when the request came by a loopback name, for an absolute redirect:
    /// some clients (Foundation's URLSession on Linux) drop the trailing slash of a relative
    /// one and loop. Any other Host gets a relative redirect, so no request can send the
    /// browser to another site.
    static func origin(host: String?) -> String {
        guard let host = host?.lowercased() else { return "" }
        let name: Substring
        var port: Substring = ""
        if host.hasPrefix("[::1]") {
            name = "[::1]"
            port = host.dropFirst(5)
        } else if let colon = host.firstIndex(of: ":") {
            name = host[..<colon]
            port = host[colon...]
        } else {
            name = host[...]
        }
        guard ["127.0.0.1", "localhost", "[::1]"].contains(name),
              port.isEmpty || (port.first == ":" && port.count <= 6 && port.dropFirst().allSatisfy(\.isNumber) && port.count > 1)
        else { return "" }
        return "http://\(name)\(port)"
    }

    static func plain(_ status: HTTPStatusCode, _ text: String, head: Bool) -> HTTPResponse {
        var headers = HTTPHeaders()
        headers[.date] = HTTPDate.now()
        headers[.contentType] = "text/plain; charset=utf-8"
        headers[HTTPHeader("X-Content-Type-Options")] = "nosniff"
        headers[.cacheControl] = "no-store"
        return response(status, headers, body: Data(text.utf8), head: head)
    }

    /// A response whose length is said even to HEAD, which gets no body.
    static func response(_ status: HTTPStatusCode, _ headers: HTTPHeaders, body: Data, head: Bool, length: Int? = nil) -> HTTPResponse {
        var headers = headers
        headers[.contentLength] = String(length ?? body.count)
        return HTTPResponse(statusCode: status, headers: headers, body: head ? Data() : body)
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
