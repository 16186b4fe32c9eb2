import FolioCore
import Foundation

/// Answers every request of the preview: the live-reload event stream, and the files of
/// `public/` with the HTTP a browser expects of a real server (types, folders' index pages,
/// a 404 page, HEAD, ranges, validators and cache headers), so what the preview shows is what
/// static hosting will show. Nothing outside `public/` is ever read.
struct PreviewHandler: Sendable {
    let folder: PublicFolder
    let channel: LiveReloadChannel
    /// Files up to this size are read whole; larger ones are streamed from their descriptor.
    static let streamingThreshold = 512 * 1024
    static let immutable = "public, max-age=31536000, immutable"

    /// The answer to one request; a failure reading a file is a 500, never a dropped connection.
    func respond(to request: RequestHead) async -> PreviewResponse {
        do {
            return try await handle(request)
        } catch {
            return Self.plain(500, "The preview could not read that file: \(error)\n", head: request.method == "HEAD")
        }
    }

    private func handle(_ request: RequestHead) async throws -> PreviewResponse {
        let isHead = request.method == "HEAD"
        guard request.method == "GET" || isHead else {
            var response = Self.plain(405, "Only GET and HEAD are served here.\n", head: false)
            response["Allow"] = "GET, HEAD"
            return response
        }
        let raw = request.path
        if raw == LiveReloadScript.eventsPath {
            return events(head: isHead)
        }
        let path: RequestPath
        do {
            path = try RequestPath(raw: raw)
        } catch {
            return Self.plain(400, "Bad request: \(error)\n", head: isHead)
        }
        if path.segments.first == "__folio" {
            return await notFound(path, head: isHead)
        }
        switch await resolve(path) {
        case .file(let file):
            return try serve(file, request: request, head: isHead)
        case .folderWithoutSlash:
            var location = Self.origin(host: request.header("host")) + path.folderURLPath
            if !request.query.isEmpty { location += "?" + request.query }
            var response = Self.plain(301, "Moved to \(location)\n", head: isHead)
            response["Location"] = location
            // A preview's folders may become files: do not let the browser keep the redirect.
            response["Cache-Control"] = "no-cache"
            return response
        case .outside:
            return Self.plain(403, "Forbidden: that path leads outside public/.\n", head: isHead)
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

    private func events(head: Bool) -> PreviewResponse {
        var response = PreviewResponse(status: 200, body: head ? .data(Data()) : .events(channel.subscribe()))
        response["Content-Type"] = "text/event-stream; charset=utf-8"
        response["Cache-Control"] = "no-store"
        if !head { response["Transfer-Encoding"] = "chunked" }
        return response
    }

    private func serve(_ file: PublicFile, request: RequestHead, head: Bool) throws -> PreviewResponse {
        let type = ContentType.of(file.path)
        let isPage = ContentType.isHTML(type)
        let tag = EntityTag(inode: file.inode, size: file.size, modifiedNanoseconds: file.modifiedNanoseconds,
                            variant: isPage ? "lr" + LiveReloadScript.version : "")
        var response = PreviewResponse(status: 200)
        response["Date"] = HTTPDate.now()
        response["Content-Type"] = type
        response["ETag"] = tag.value
        response["Last-Modified"] = HTTPDate.format(file.modifiedSeconds)
        // Media are named by their content: a name never changes meaning. Everything else
        // (pages, CSS, the feed) keeps its name across builds, so it is checked every time.
        response["Cache-Control"] = file.relative.hasPrefix("media/") ? Self.immutable : "no-cache"
        response["X-Content-Type-Options"] = "nosniff"

        if notModified(request, tag: tag, modified: file.modifiedSeconds) {
            // What a 200 would say (RFC 9110 §8.6), the script included for pages.
            response.status = 304
            response["Content-Length"] = String(file.size + (isPage ? LiveReloadScript.tag.count : 0))
            return response
        }

        if isPage {
            // Pages get the live-reload script, so they are never served in parts.
            if head { return Self.response(response, body: Data(), head: true, length: file.size + LiveReloadScript.tag.count) }
            return Self.response(response, body: LiveReloadScript.inject(into: try file.read(0..<file.size)), head: false)
        }

        response["Accept-Ranges"] = "bytes"
        var range = head ? ByteRange.whole : ByteRange(header: request.header("range"), size: file.size)
        if range != .whole, let ifRange = request.header("if-range"), !rangeStillValid(ifRange, tag: tag, file: file) {
            range = .whole
        }
        switch range {
        case .unsatisfiable:
            response.status = 416
            response["Content-Range"] = "bytes */\(file.size)"
            response["Content-Type"] = nil
            return Self.response(response, body: Data(), head: head)
        case .part(let part):
            response.status = 206
            response["Content-Range"] = "bytes \(part.lowerBound)-\(part.upperBound - 1)/\(file.size)"
            return try body(of: file, part, response, head: head)
        case .whole:
            return try body(of: file, 0..<file.size, response, head: head)
        }
    }

    private func body(of file: PublicFile, _ range: Range<Int>, _ response: PreviewResponse, head: Bool) throws -> PreviewResponse {
        if head || range.count <= Self.streamingThreshold {
            return Self.response(response, body: head ? Data() : try file.read(range), head: head, length: range.count)
        }
        var streamed = response
        streamed["Content-Length"] = String(range.count)
        streamed.body = .file(file, range)
        return streamed
    }

    /// RFC 9110 §13.2.2: If-None-Match wins over If-Modified-Since when both are sent.
    private func notModified(_ request: RequestHead, tag: EntityTag, modified: Int) -> Bool {
        if let ifNoneMatch = request.header("if-none-match") {
            return tag.matches(ifNoneMatch: ifNoneMatch)
        }
        if let since = request.header("if-modified-since").flatMap(HTTPDate.parse) {
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
    private func notFound(_ path: RequestPath, head: Bool) async -> PreviewResponse {
        var response = PreviewResponse(status: 404)
        response["Date"] = HTTPDate.now()
        response["Content-Type"] = ContentType.html
        response["Cache-Control"] = "no-store"
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
        return Self.response(response, body: LiveReloadScript.inject(into: page), head: head)
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

    static func plain(_ status: Int, _ text: String, head: Bool) -> PreviewResponse {
        var response = PreviewResponse(status: status)
        response["Date"] = HTTPDate.now()
        response["Content-Type"] = "text/plain; charset=utf-8"
        response["X-Content-Type-Options"] = "nosniff"
        response["Cache-Control"] = "no-store"
        return self.response(response, body: Data(text.utf8), head: head)
    }

    /// A response whose length is said even to HEAD, which gets no body.
    static func response(_ response: PreviewResponse, body: Data, head: Bool, length: Int? = nil) -> PreviewResponse {
        var response = response
        response["Content-Length"] = String(length ?? body.count)
        response.body = .data(head ? Data() : body)
        return response
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
