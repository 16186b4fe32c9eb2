import FolioCore
import Foundation

/// The keys requests to a bucket are signed with, found where AWS's own tools look: the
/// `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY` and `AWS_SESSION_TOKEN` variables, else the
/// profile `AWS_PROFILE` (or "default") of `~/.aws/credentials` (`AWS_SHARED_CREDENTIALS_FILE`
/// names another file). The secret never appears in a description, a message or a log.
public struct S3Credentials: Sendable, Equatable, CustomStringConvertible {
    public var accessKey: String
    public var secretKey: String
    public var sessionToken: String?

    public init(accessKey: String, secretKey: String, sessionToken: String? = nil) {
        self.accessKey = accessKey
        self.secretKey = secretKey
        self.sessionToken = sessionToken
    }

    /// Only the access key's id shows, which AWS itself prints in its errors.
    public var description: String { "access key \(accessKey)" }

    public static func find(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> S3Credentials {
        func variable(_ name: String) -> String? {
            environment[name].map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.flatMap { $0.isEmpty ? nil : $0 }
        }
        if let access = variable("AWS_ACCESS_KEY_ID") {
            guard let secret = variable("AWS_SECRET_ACCESS_KEY") else {
                throw FolioError(reason: "AWS_ACCESS_KEY_ID is set but AWS_SECRET_ACCESS_KEY is not")
            }
            return S3Credentials(accessKey: access, secretKey: secret, sessionToken: variable("AWS_SESSION_TOKEN"))
        }
        let profile = variable("AWS_PROFILE") ?? "default"
        let file = variable("AWS_SHARED_CREDENTIALS_FILE").map { URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: variable("HOME") ?? NSHomeDirectory()).appendingPathComponent(".aws/credentials")
        guard let text = try? String(contentsOf: file, encoding: .utf8) else {
            throw FolioError(reason: "no credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE with \(file.path)")
        }
        let values = profileValues(text, profile: profile)
        guard let access = values["aws_access_key_id"], let secret = values["aws_secret_access_key"] else {
            throw FolioError(path: file.path, reason: "no profile '\(profile)' with aws_access_key_id and aws_secret_access_key")
        }
        return S3Credentials(accessKey: access, secretKey: secret, sessionToken: values["aws_session_token"])
    }

    /// The `key = value` lines of `[profile]` in an INI file such as `~/.aws/credentials`.
    static func profileValues(_ text: String, profile: String) -> [String: String] {
        var values: [String: String] = [:]
        var inProfile = false
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") && line.hasSuffix("]") {
                inProfile = line.dropFirst().dropLast().trimmingCharacters(in: .whitespaces) == profile
                continue
            }
            guard inProfile, let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            values[key] = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
        }
        return values
    }
}
