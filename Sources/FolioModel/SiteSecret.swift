import FolioCore
import Foundation

/// The site's secret: the key unlisted albums' addresses and protected albums' salts are derived
/// from. The model keeps one, made on first need; one given from outside it (`FOLIO_SITE_SECRET`,
/// or a file `FOLIO_SITE_SECRET_FILE` names) is used instead, so a build whose model is new every
/// time (a CI's, from a fresh clone) publishes the same addresses as the builds before it.
///
/// An outside secret leaves the model's as it is: it is neither stored nor replaced, so a
/// variable set by mistake loses nothing, the model never learns a CI's secret, and a build
/// without the variable publishes at the model's addresses again.
public struct SiteSecret: Sendable, Equatable {
    public static let variable = "FOLIO_SITE_SECRET"
    public static let fileVariable = "FOLIO_SITE_SECRET_FILE"
    /// Bytes in a secret, as the model's is made: 64 hexadecimal digits written out.
    public static let length = 32

    public let bytes: [UInt8]

    public init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// As `folio secret` prints it and the variable or the file gives it back.
    public var hex: String { bytes.hexText }

    /// A new secret, from the system's random source.
    static func random() -> SiteSecret {
        var generator = SystemRandomNumberGenerator()
        return SiteSecret(bytes: (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    /// `text` as a secret: 64 hexadecimal digits, spaces and line ends around them ignored.
    /// `origin` says where it came from in the message, which never repeats the text: a secret
    /// mistyped is still most of one.
    public static func parse(_ text: String, origin: String) throws -> SiteSecret {
        let digits = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let rule = "a site secret is \(length * 2) hexadecimal digits, as 'folio secret' prints (or 'openssl rand -hex \(length)' makes)"
        guard !digits.isEmpty else { throw FolioError(path: origin, reason: "is empty: \(rule)") }
        guard digits.allSatisfy(\.isHexDigit) else {
            throw FolioError(path: origin, reason: "holds characters that are not hexadecimal digits: \(rule)")
        }
        guard digits.count == length * 2 else {
            throw FolioError(path: origin, reason: "has \(digits.count) digits: \(rule)")
        }
        var bytes: [UInt8] = []
        var index = digits.startIndex
        while index < digits.endIndex {
            let next = digits.index(index, offsetBy: 2)
            bytes.append(UInt8(digits[index..<next], radix: 16) ?? 0)
            index = next
        }
        return SiteSecret(bytes: bytes)
    }

    /// The secret `environment` gives, or nil when it names none. A variable set but empty is an
    /// error, not a secret left out: a CI's secret missing from its run (a fork's pull request)
    /// would otherwise publish at a fresh model's new addresses.
    public static func outside(environment: [String: String]) throws -> SiteSecret? {
        let value = environment[variable]
        let file = environment[fileVariable]
        if value != nil && file != nil {
            throw FolioError(reason: "both \(variable) and \(fileVariable) are set: give the site's secret one way")
        }
        if let value {
            return try parse(value, origin: variable)
        }
        guard let file else { return nil }
        guard !file.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw FolioError(path: fileVariable, reason: "is empty: it names the file holding the site's secret")
        }
        let url = URL(fileURLWithPath: file)
        let origin = "\(url.path) (\(fileVariable))"
        // Read no further than a secret can be: a path to a device or a large file by mistake
        // is refused, not read whole.
        let data: Data
        do {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            data = try handle.read(upToCount: 4096) ?? Data()
        } catch {
            throw FolioError(path: origin, reason: "cannot be read: \(error.localizedDescription)")
        }
        guard data.count < 4096 else { throw FolioError(path: origin, reason: "is too large to be a site secret") }
        return try parse(String(decoding: data, as: UTF8.self), origin: origin)
    }

    /// The secret a build of the site at `paths` uses: the one `environment` gives, else the
    /// model's, made now when it has none (so it can be kept before the first build needs it).
    public static func inEffect(for paths: SitePaths, environment: [String: String] = ProcessInfo.processInfo.environment,
                                files: any FileAccess = LocalFileAccess()) throws -> SiteSecret {
        if let outside = try outside(environment: environment) { return outside }
        guard files.isFolder(paths.content) else {
            throw FolioError(path: paths.root.path, reason: "not a Folio site: it has no content/ folder (try 'folio new')")
        }
        return try GalleryDatabase.open(at: paths.database).siteSecret()
    }

    /// What a build's mark keeps of an outside secret: another secret gives another text, and
    /// nothing of the secret can be learnt from it (a digest of 32 random bytes).
    package var markText: String {
        SHA256.hex(Array("folio site secret\u{0}".utf8) + bytes)
    }
}
