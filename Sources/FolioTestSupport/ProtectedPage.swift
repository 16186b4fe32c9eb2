import FolioCore
import Foundation

/// A protected album's published page, opened as a visitor's browser opens it.
package enum ProtectedPage {
    /// Decrypts a published protected page as the browser does, with Python's `cryptography`
    /// (OpenSSL under another API, a reference independent of Folio's code path). Nil when the
    /// password does not open it; an error naming the page when it could not be tried at all
    /// (no such page, no payload in it, no `cryptography`).
    package static func decrypt(_ page: String, password: String) throws -> String? {
        // The first line says whether the password opened the page; the rest is the page.
        let script = """
            import base64, re, sys
            from cryptography.exceptions import InvalidTag
            from cryptography.hazmat.primitives.ciphers.aead import AESGCM
            from cryptography.hazmat.primitives.kdf.pbkdf2 import PBKDF2HMAC
            from cryptography.hazmat.primitives import hashes
            html = open(sys.argv[1], encoding="utf-8").read()
            salt = base64.b64decode(re.search(r'data-salt="([^"]+)"', html).group(1))
            iterations = int(re.search(r'data-iterations="(\\d+)"', html).group(1))
            sealed = base64.b64decode(re.search(r'<script type="application/octet-stream" id="locked-payload">([^<]+)</script>', html).group(1))
            key = PBKDF2HMAC(algorithm=hashes.SHA256(), length=32, salt=salt, iterations=iterations).derive(sys.argv[2].encode())
            try:
                sys.stdout.write("opened\\n" + AESGCM(key).decrypt(sealed[:12], sealed[12:], None).decode())
            except InvalidTag:
                sys.stdout.write("refused\\n")
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, page, password]
        let (out, err) = (Pipe(), Pipe())
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let said = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        if process.terminationStatus == 0, text.hasPrefix("opened\n") { return String(text.dropFirst("opened\n".count)) }
        if process.terminationStatus == 0, text == "refused\n" { return nil }
        let reason = String(decoding: said, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? "status \(process.terminationStatus)"
        throw FolioError(path: page, reason: "could not be opened to try the password: \(reason)")
    }
}
