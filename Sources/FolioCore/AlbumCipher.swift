import CCrypto
import Foundation

/// What a password-protected album is published with: AES-256-GCM under a key stretched from
/// the password by PBKDF2-HMAC-SHA256, as the visitor's browser derives it again with WebCrypto
/// (the theme's `locked.js`). The one Swift file that touches libcrypto.
public struct AlbumCipher: Sendable {
    /// Slow enough to make guessing a password offline costly (OWASP's figure for PBKDF2-SHA256),
    /// quick enough for a phone to open an album.
    public static let iterations = 600_000

    public let salt: [UInt8]
    private let key: [UInt8]

    public init(password: String, salt: [UInt8], iterations: Int = AlbumCipher.iterations) throws {
        self.salt = salt
        var key = [UInt8](repeating: 0, count: 32)
        let bytes = Array(password.utf8)
        let ok = bytes.withUnsafeBufferPointer { password in
            password.withMemoryRebound(to: CChar.self) { password in
                folio_pbkdf2_sha256(password.baseAddress, Int32(password.count), salt, Int32(salt.count), Int32(iterations), &key, 32)
            }
        }
        guard ok == 1 else { throw FolioError(reason: "libcrypto could not derive a key") }
        self.key = key
    }

    /// What tells this key from another without revealing it: an HMAC of a fixed text under the
    /// key. It changes with the password (and the salt), and checking a guessed password against
    /// it costs the key's derivation, as against the published pages: it is what decides whether
    /// a protected album's pages are drawn again (`PageFrame.lock`).
    public var verifier: String {
        HMAC.sha256(key: key, "folio album key verifier").hexText
    }

    /// `plain` sealed: a 12-byte nonce, the ciphertext, the 16-byte tag. The nonce is derived from
    /// the key and the plaintext (as in SIV modes): the same page seals to the same bytes, so an
    /// unchanged page is not rewritten, and no nonce is ever used for two different plaintexts.
    public func seal(_ plain: Data) throws -> Data {
        let nonce = Array(HMAC.sha256(key: key, Array(plain)).prefix(12))
        var sealed = [UInt8](repeating: 0, count: plain.count + 16)
        let ok = plain.withUnsafeBytes { plain in
            folio_aes256gcm_seal(key, nonce, plain.bindMemory(to: UInt8.self).baseAddress, Int32(plain.count), &sealed)
        }
        guard ok == 1 else { throw FolioError(reason: "libcrypto could not encrypt") }
        return Data(nonce + sealed)
    }
}
