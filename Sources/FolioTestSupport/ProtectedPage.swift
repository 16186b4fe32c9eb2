import Foundation

/// A protected album's published page, opened as a visitor's browser opens it.
package enum ProtectedPage {
    /// Decrypts a published protected page as the browser does, with Python's `cryptography`
    /// (OpenSSL under another API, a reference independent of Folio's code path).
    package static func decrypt(_ page: String, password: String) throws -> String? {
        let script = """
            import base64, re, sys
            from cryptography.hazmat.primitives.ciphers.aead import AESGCM
            from cryptography.hazmat.primitives.kdf.pbkdf2 import PBKDF2HMAC
            from cryptography.hazmat.primitives import hashes
            html = open(sys.argv[1], encoding="utf-8").read()
            salt = base64.b64decode(re.search(r'data-salt="([^"]+)"', html).group(1))
            iterations = int(re.search(r'data-iterations="(\\d+)"', html).group(1))
            sealed = base64.b64decode(re.search(r'<script type="application/octet-stream" id="locked-payload">([^<]+)</script>', html).group(1))
            key = PBKDF2HMAC(algorithm=hashes.SHA256(), length=32, salt=salt, iterations=iterations).derive(sys.argv[2].encode())
            try:
                sys.stdout.write(AESGCM(key).decrypt(sealed[:12], sealed[12:], None).decode())
            except Exception:
                sys.exit(3)
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, page, password]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return process.terminationStatus == 0 ? String(decoding: data, as: UTF8.self) : nil
    }
}
