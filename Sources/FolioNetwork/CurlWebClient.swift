import CCurl
import Foundation

/// HTTP over libcurl: the only code that calls libcurl. Each request gets an easy handle of its
/// own (`CurlEasy`, freed in deinit) and runs on a thread of its own, off Swift's cooperative
/// pool, which a blocking transfer must never hold.
public struct CurlWebClient: WebClient {
    public var userAgent: String

    public init(userAgent: String = "Folio") {
        self.userAgent = userAgent
    }

    /// curl_global_init, once, before the first handle (it is not thread-safe itself).
    private static let initialized: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK

    public func send(_ request: WebRequest) async throws -> WebResponse {
        let cancel = CancelFlag()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let userAgent = userAgent
                Thread.detachNewThread {
                    continuation.resume(with: Result { try Self.perform(request, userAgent: userAgent, cancel: cancel) })
                }
            }
        } onCancel: {
            cancel.set()
        }
    }

    private static func perform(_ request: WebRequest, userAgent: String, cancel: CancelFlag) throws -> WebResponse {
        let shown = request.shownURL
        guard initialized, let easy = CurlEasy() else {
            throw WebError(.other, url: shown, detail: "libcurl could not start")
        }
        let handle = easy.handle
        let transfer = Transfer(limit: request.maximumResponseSize, cancel: cancel)
        let context = Unmanaged.passUnretained(transfer).toOpaque()
        var headers: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(headers) }
        // An empty Expect stops curl from waiting for "100 Continue" before larger bodies. An empty
        // Content-Type, unless the caller names one, stops curl from calling every body a form
        // (its default for POSTFIELDS): a server would parse the bytes of a photo as form fields.
        var extra = [("Expect", "")]
        let sendsBody = request.body != nil || request.method == .put || request.method == .post
        if sendsBody && !request.headers.contains(where: { $0.name.lowercased() == "content-type" }) {
            extra.append(("Content-Type", ""))
        }
        for (name, value) in request.headers + extra {
            headers = curl_slist_append(headers, value.isEmpty ? "\(name):" : "\(name): \(value)")
        }
        var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)

        let code: CURLcode = request.url.absoluteString.withCString { url in
            userAgent.withCString { agent in
                errorBuffer.withUnsafeMutableBufferPointer { errors in
                    // An empty Data has no address, and a null POSTFIELDS would make curl read the body
                    // from standard input: an empty body points at a byte that is never sent.
                    let body = request.body.flatMap { $0.isEmpty ? nil : $0 } ?? Data([0])
                    return body.withUnsafeBytes { body in
                        _ = folio_curl_set_string(handle, CURLOPT_URL, url)
                        _ = folio_curl_set_string(handle, CURLOPT_USERAGENT, agent)
                        _ = folio_curl_set_pointer(handle, CURLOPT_ERRORBUFFER, errors.baseAddress)
                        _ = folio_curl_set_long(handle, CURLOPT_NOSIGNAL, 1)
                        _ = folio_curl_set_long(handle, CURLOPT_CONNECTTIMEOUT_MS, milliseconds(request.connectTimeout))
                        _ = folio_curl_set_long(handle, CURLOPT_TIMEOUT_MS, milliseconds(request.timeout))
                        _ = folio_curl_set_long(handle, CURLOPT_FOLLOWLOCATION, 1)
                        _ = folio_curl_set_long(handle, CURLOPT_MAXREDIRS, 5)
                        _ = folio_curl_set_string(handle, CURLOPT_PROTOCOLS_STR, "http,https")
                        _ = folio_curl_set_string(handle, CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
                        _ = folio_curl_set_string(handle, CURLOPT_ACCEPT_ENCODING, "")
                        _ = folio_curl_set_list(handle, CURLOPT_HTTPHEADER, headers)
                        _ = folio_curl_set_off(handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(request.maximumResponseSize))
                        _ = folio_curl_set_io(handle, CURLOPT_WRITEFUNCTION, receiveBody)
                        _ = folio_curl_set_pointer(handle, CURLOPT_WRITEDATA, context)
                        _ = folio_curl_set_io(handle, CURLOPT_HEADERFUNCTION, receiveHeader)
                        _ = folio_curl_set_pointer(handle, CURLOPT_HEADERDATA, context)
                        _ = folio_curl_set_long(handle, CURLOPT_NOPROGRESS, 0)
                        _ = folio_curl_set_progress(handle, checkCancelled)
                        _ = folio_curl_set_pointer(handle, CURLOPT_XFERINFODATA, context)
                        switch request.method {
                        case .get:
                            _ = folio_curl_set_long(handle, CURLOPT_HTTPGET, 1)
                        case .head:
                            _ = folio_curl_set_long(handle, CURLOPT_NOBODY, 1)
                        case .put, .post, .delete:
                            if sendsBody {
                                _ = folio_curl_set_long(handle, CURLOPT_POST, 1)
                                _ = folio_curl_set_pointer(handle, CURLOPT_POSTFIELDS, UnsafeMutableRawPointer(mutating: body.baseAddress))
                                _ = folio_curl_set_off(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(request.body?.count ?? 0))
                            }
                            _ = folio_curl_set_string(handle, CURLOPT_CUSTOMREQUEST, request.method.rawValue)
                        }
                        return curl_easy_perform(handle)
                    }
                }
            }
        }

        guard code == CURLE_OK else {
            let detail = String(decoding: errorBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            throw WebError(kind(of: code, transfer: transfer), url: shown,
                            detail: detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail)
        }
        var status = 0
        _ = folio_curl_get_long(handle, CURLINFO_RESPONSE_CODE, &status)
        return WebResponse(status: status, headers: transfer.headers, body: transfer.body)
    }

    private static func kind(of code: CURLcode, transfer: Transfer) -> WebError.Kind {
        if transfer.cancel.isSet { return .cancelled }
        if transfer.overLimit { return .tooLarge }
        switch code {
        case CURLE_OPERATION_TIMEDOUT: return .timeout
        case CURLE_COULDNT_CONNECT: return .connectionRefused
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY: return .hostNotFound
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
             CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ENGINE_NOTFOUND:
            return .tls
        case CURLE_FILESIZE_EXCEEDED: return .tooLarge
        case CURLE_ABORTED_BY_CALLBACK: return .cancelled
        case CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_GOT_NOTHING, CURLE_PARTIAL_FILE, CURLE_WEIRD_SERVER_REPLY,
             CURLE_HTTP2, CURLE_HTTP2_STREAM:
            return .connection
        default: return .other
        }
    }

    private static func milliseconds(_ seconds: TimeInterval) -> Int {
        Int(max(1, (seconds * 1000).rounded()))
    }
}

/// An easy handle, freed when it goes.
private final class CurlEasy {
    let handle: UnsafeMutableRawPointer

    init?() {
        guard let handle = curl_easy_init() else { return nil }
        self.handle = handle
    }

    deinit { curl_easy_cleanup(handle) }
}

/// What the callbacks of one transfer fill in; they run on the transfer's thread only.
private final class Transfer {
    let limit: Int
    let cancel: CancelFlag
    var body = Data()
    var headers: [String: String] = [:]
    var overLimit = false

    init(limit: Int, cancel: CancelFlag) {
        self.limit = limit
        self.cancel = cancel
    }
}

/// Set from any thread when the task that asked for a transfer is cancelled.
private final class CancelFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}

private func transfer(_ context: UnsafeMutableRawPointer?) -> Transfer {
    Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue()
}

// The callbacks: plain functions, so they convert to C function pointers.

private func receiveBody(_ buffer: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?) -> Int {
    let transfer = transfer(context)
    let bytes = size * count
    guard transfer.body.count + bytes <= transfer.limit else {
        transfer.overLimit = true
        return 0  // curl stops the transfer
    }
    if let buffer { transfer.body.append(UnsafeRawPointer(buffer).assumingMemoryBound(to: UInt8.self), count: bytes) }
    return bytes
}

private func receiveHeader(_ buffer: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?) -> Int {
    let transfer = transfer(context)
    let bytes = size * count
    guard let buffer else { return bytes }
    let line = String(decoding: UnsafeRawBufferPointer(start: buffer, count: bytes), as: UTF8.self)
    if line.hasPrefix("HTTP/") {
        transfer.headers = [:]  // a new response (after a redirect or a 100): its own headers
    } else if let colon = line.firstIndex(of: ":") {
        let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
        let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
        transfer.headers[name] = transfer.headers[name].map { "\($0), \(value)" } ?? value
    }
    return bytes
}

private func checkCancelled(_ context: UnsafeMutableRawPointer?, _: curl_off_t, _: curl_off_t, _: curl_off_t, _: curl_off_t) -> Int32 {
    transfer(context).cancel.isSet ? 1 : 0
}
