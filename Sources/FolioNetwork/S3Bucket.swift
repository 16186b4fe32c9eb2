import FolioCore
import Foundation

/// One bucket of an S3-compatible store (AWS S3, Cloudflare R2, MinIO, Backblaze B2, Wasabi…),
/// through the `WebClient` seam: every request signed with SigV4, retried with back-off when the
/// failure may pass, and any other answer turned into an `S3Error`.
///
/// With an `endpoint`, objects are addressed path-style (`endpoint/bucket/key`), which every
/// S3-compatible store understands; without one, AWS's own virtual-hosted address.
public struct S3Bucket: Sendable {
    /// An object as a listing shows it.
    public struct Object: Sendable, Equatable {
        public var key: String
        public var size: Int
        public var etag: String
    }

    public let name: String
    public let endpoint: URL?
    public let signer: SigV4Signer
    let web: any WebClient
    let retry: RetryPolicy
    /// Told of each retry, with the reason, for the terminal.
    let onRetry: @Sendable (String) -> Void

    /// Refuses a name or region that cannot be part of an address (a space, a slash, a colon):
    /// the bucket's every URL is made from them.
    public init(name: String, endpoint: URL?, region: String, credentials: S3Credentials, web: any WebClient = CurlWebClient(),
                retry: RetryPolicy = RetryPolicy(attempts: 5), onRetry: @escaping @Sendable (String) -> Void = { _ in }) throws {
        if let problem = Self.nameProblem(name) { throw FolioError(path: "bucket '\(CleanText.shown(name))'", reason: problem) }
        if let problem = Self.regionProblem(region) { throw FolioError(path: "region '\(CleanText.shown(region))'", reason: problem) }
        self.name = name
        self.endpoint = endpoint
        self.signer = SigV4Signer(credentials: credentials, region: region)
        self.web = web
        self.retry = retry
        self.onRetry = onRetry
    }

    static let emptyHash = SHA256.hex(Data())

    /// S3's rules, as loose as the S3-compatible stores are (MinIO and older AWS buckets allow
    /// capitals and underscores): 1 to 255 of letters, digits, ".", "-" and "_".
    static func nameProblem(_ name: String) -> String? {
        guard (1...255).contains(name.utf8.count) else { return "a bucket's name is 1 to 255 characters" }
        guard name.unicodeScalars.allSatisfy({ $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "._-".unicodeScalars.contains($0)) }) else {
            return "a bucket's name holds only letters, digits, '.', '-' and '_'"
        }
        return nil
    }

    /// "eu-west-1", "auto": letters, digits and "-".
    static func regionProblem(_ region: String) -> String? {
        guard (1...64).contains(region.utf8.count),
              region.unicodeScalars.allSatisfy({ $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-") }) else {
            return "a region is letters, digits and '-' (eu-west-1, auto)"
        }
        return nil
    }

    /// The address of `key` (or of the bucket, for ""), with `query` encoded as S3 signs it.
    func url(_ key: String, query: [(String, String)] = []) -> URL {
        let path = SigV4Signer.encode(key, keepingSlashes: true)
        var text: String
        if let endpoint {
            var base = endpoint.absoluteString
            while base.hasSuffix("/") { base.removeLast() }
            text = "\(base)/\(SigV4Signer.encode(name))/\(path)"
        } else if name.contains(".") {
            // A dotted name does not fit the wildcard certificate of virtual-hosted addresses.
            text = "https://s3.\(signer.region).amazonaws.com/\(SigV4Signer.encode(name))/\(path)"
        } else {
            text = "https://\(name).s3.\(signer.region).amazonaws.com/\(path)"
        }
        if !query.isEmpty {
            text += "?" + query.map { "\(SigV4Signer.encode($0.0))=\(SigV4Signer.encode($0.1))" }.joined(separator: "&")
        }
        return URL(string: text)!
    }

    /// Sends one signed request, again on failures that may pass; an answer outside 2xx is an
    /// `S3Error` (but a 404 when `missingIsNil`, which gives nil).
    func send(_ method: WebRequest.Method, _ key: String, query: [(String, String)] = [], headers: [(String, String)] = [],
              body: Data? = nil, missingIsNil: Bool = false) async throws -> WebResponse? {
        let payloadHash = body.map { SHA256.hex($0) } ?? Self.emptyHash
        let shown = key.isEmpty ? name : key
        return try await retry.run({ _ in
            var request = WebRequest(method, url(key, query: query), headers: headers + [("x-amz-content-sha256", payloadHash)],
                                     body: body, connectTimeout: 15, timeout: 600)
            request = signer.sign(request, payloadHash: payloadHash, date: Date())
            let response = try await web.send(request)
            if (200..<300).contains(response.status) { return response }
            if response.status == 404 && missingIsNil { return nil }
            let xml = String(decoding: response.body, as: UTF8.self)
            throw S3Error(status: response.status, code: S3XML.value("Code", in: xml) ?? "", message: S3XML.value("Message", in: xml) ?? "",
                          key: shown)
        }, decide: { error in
            if let error = error as? S3Error, error.isTransient { return .retry(after: nil) }
            if let error = error as? WebError, error.isTransient { return .retry(after: nil) }
            return .fail
        }, retrying: { error, wait in
            onRetry("\(shown): \(error); trying again in \(Int(wait.rounded()))s")
        })
    }

    /// Every object whose key starts with `prefix`, by key.
    public func list(prefix: String) async throws -> [String: Object] {
        var found: [String: Object] = [:]
        var token: String?
        repeat {
            var query = [("list-type", "2"), ("prefix", prefix), ("encoding-type", "url")]
            if let token { query.append(("continuation-token", token)) }
            guard let response = try await send(.get, "", query: query) else { break }
            let xml = String(decoding: response.body, as: UTF8.self)
            let encoded = S3XML.value("EncodingType", in: xml) == "url"
            for block in S3XML.blocks("Contents", in: xml) {
                guard var key = S3XML.value("Key", in: block) else { continue }
                if encoded { key = key.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? key }
                found[key] = Object(key: key, size: Int(S3XML.value("Size", in: block) ?? "") ?? -1,
                                    etag: S3XML.value("ETag", in: block) ?? "")
            }
            token = S3XML.value("IsTruncated", in: xml) == "true" ? S3XML.value("NextContinuationToken", in: xml) : nil
        } while token != nil
        return found
    }

    /// The object's bytes, or nil when there is none.
    public func get(_ key: String) async throws -> Data? {
        try await send(.get, key, missingIsNil: true)?.body
    }

    /// The object's headers (Content-Type, Cache-Control, ETag…), or nil when there is none.
    public func head(_ key: String) async throws -> [String: String]? {
        try await send(.head, key, missingIsNil: true)?.headers
    }

    public func put(_ key: String, body: Data, contentType: String, cacheControl: String) async throws {
        _ = try await send(.put, key, headers: [("Content-Type", contentType), ("Cache-Control", cacheControl)], body: body)
    }

    public func delete(_ key: String) async throws {
        _ = try await send(.delete, key, missingIsNil: true)
    }

    /// Uploads a large file in parts of `partSize` bytes (S3's smallest is 5 MiB), read one at a
    /// time so memory holds one part, not the file. A failure aborts the upload, so no parts are
    /// left to be paid for.
    public func putMultipart(_ key: String, file: URL, size: Int, partSize: Int, contentType: String, cacheControl: String) async throws {
        guard let created = try await send(.post, key, query: [("uploads", "")],
                                           headers: [("Content-Type", contentType), ("Cache-Control", cacheControl)], body: Data()),
              let uploadID = S3XML.value("UploadId", in: String(decoding: created.body, as: UTF8.self))
        else { throw S3Error(status: 0, code: "", message: "the bucket gave no upload id", key: key) }
        do {
            let handle = try FileHandle(forReadingFrom: file)
            defer { try? handle.close() }
            var parts: [String] = []
            var offset = 0
            while offset < size {
                try handle.seek(toOffset: UInt64(offset))
                let chunk = try handle.read(upToCount: min(partSize, size - offset)) ?? Data()
                guard !chunk.isEmpty else { throw FolioError(path: file.path, reason: "changed while it was being uploaded") }
                let number = parts.count + 1
                let response = try await send(.put, key, query: [("partNumber", String(number)), ("uploadId", uploadID)], body: chunk)
                parts.append(response?.header("etag") ?? "")
                offset += chunk.count
            }
            let list = parts.enumerated().map { "<Part><PartNumber>\($0.offset + 1)</PartNumber><ETag>\(S3XML.escape($0.element))</ETag></Part>" }
            let body = Data("<CompleteMultipartUpload>\(list.joined())</CompleteMultipartUpload>".utf8)
            let done = try await send(.post, key, query: [("uploadId", uploadID)], headers: [("Content-Type", "application/xml")], body: body)
            // S3 may answer 200 and say in the body that it failed.
            let xml = String(decoding: done?.body ?? Data(), as: UTF8.self)
            if let code = S3XML.value("Code", in: xml), xml.contains("<Error>") {
                throw S3Error(status: 200, code: code, message: S3XML.value("Message", in: xml) ?? "", key: key)
            }
        } catch {
            _ = try? await send(.delete, key, query: [("uploadId", uploadID)], missingIsNil: true)
            throw error
        }
    }
}
