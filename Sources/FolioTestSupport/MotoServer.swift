import FolioCore
import FolioNetwork
import Foundation

/// A real S3-compatible server on 127.0.0.1 for the publish tests: moto's server mode
/// (`moto[server]` in scripts/requirements-test.txt), run as `python3 -m moto.server` from the
/// interpreter scripts/setup.sh installed it into, and stopped with the test.
/// `authenticated` turns on moto's IAM checks: every request must be signed by a key moto knows,
/// so each test is also a test of Folio's signing. The first three requests may go unsigned
/// (`INITIAL_NO_AUTH_ACTION_COUNT`): they make a user, its policy and its access key.
public final class MotoServer: @unchecked Sendable {
    public let port: Int
    public let credentials: S3Credentials
    private let process: Process

    public var endpoint: URL { URL(string: "http://127.0.0.1:\(port)")! }

    private init(port: Int, credentials: S3Credentials, process: Process) {
        self.port = port
        self.credentials = credentials
        self.process = process
    }

    deinit { stop() }

    /// SIGKILL, not SIGTERM: a process started from a test thread inherits that thread's blocked
    /// signals, and moto, never seeing SIGTERM, would keep the test waiting for ever. It holds
    /// nothing that needs a clean exit.
    public func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    public static func start(authenticated: Bool = true) async throws -> MotoServer {
        let port = try freePort()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-m", "moto.server", "-H", "127.0.0.1", "-p", String(port)]
        var environment = ProcessInfo.processInfo.environment
        if authenticated { environment["INITIAL_NO_AUTH_ACTION_COUNT"] = "3" }
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let web = CurlWebClient()
        let root = URL(string: "http://127.0.0.1:\(port)/moto-api/")!
        var ready = false
        for _ in 0..<200 {
            if !process.isRunning { break }
            if let response = try? await web.send(WebRequest(.get, root, connectTimeout: 1, timeout: 2)), response.status < 500 {
                ready = true
                break
            }
            try await Task.sleep(nanoseconds: 100_000_000)
        }
        guard ready else {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            throw FolioError(reason: "moto_server did not start on port \(port): install it with scripts/setup.sh (moto[server])")
        }
        guard authenticated else {
            return MotoServer(port: port, credentials: S3Credentials(accessKey: "AKIDUNCHECKED", secretKey: "unchecked"), process: process)
        }
        let credentials = try await makeUser(port: port, web: web)
        return MotoServer(port: port, credentials: credentials, process: process)
    }

    /// A user allowed everything, and its access key, through IAM's query API.
    private static func makeUser(port: Int, web: CurlWebClient) async throws -> S3Credentials {
        let signer = SigV4Signer(credentials: S3Credentials(accessKey: "AKIDBOOTSTRAP", secretKey: "bootstrap"), region: "us-east-1",
                                 service: "iam")
        func call(_ parameters: [(String, String)]) async throws -> String {
            let body = Data((parameters + [("Version", "2010-05-08")])
                .map { "\($0.0)=\(SigV4Signer.encode($0.1))" }.joined(separator: "&").utf8)
            var request = WebRequest(.post, URL(string: "http://127.0.0.1:\(port)/")!,
                                     headers: [("Content-Type", "application/x-www-form-urlencoded")], body: body)
            request = signer.sign(request, payloadHash: SHA256.hex(body), date: Date())
            let response = try await web.send(request)
            let text = String(decoding: response.body, as: UTF8.self)
            guard response.status == 200 else { throw FolioError(reason: "moto IAM \(parameters[0].1): HTTP \(response.status) \(text)") }
            return text
        }
        _ = try await call([("Action", "CreateUser"), ("UserName", "folio")])
        let policy = #"{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"*","Resource":"*"}]}"#
        _ = try await call([("Action", "PutUserPolicy"), ("UserName", "folio"), ("PolicyName", "everything"), ("PolicyDocument", policy)])
        let key = try await call([("Action", "CreateAccessKey"), ("UserName", "folio")])
        func value(_ name: String) -> String? {
            guard let open = key.range(of: "<\(name)>"), let close = key.range(of: "</\(name)>") else { return nil }
            return String(key[open.upperBound..<close.lowerBound])
        }
        guard let access = value("AccessKeyId"), let secret = value("SecretAccessKey") else {
            throw FolioError(reason: "moto gave no access key: \(key)")
        }
        return S3Credentials(accessKey: access, secretKey: secret)
    }

    /// A port nothing listens on now: bound to 0, read, closed.
    private static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw FolioError(reason: "no socket") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw FolioError(reason: "cannot bind a port") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
