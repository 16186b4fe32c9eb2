/// A password-protected page as published: the page itself (its images inside it) encrypted,
/// with what the browser needs to derive the key again from the password the visitor types.
public struct SealedPage: Sendable, Encodable, Equatable {
    /// Base64 of the nonce, the ciphertext and the tag (`AlbumCipher.seal`).
    public var payload: String
    /// Base64 of the PBKDF2 salt: the album's own, so its pages share one key.
    public var salt: String
    public var iterations: Int

    package init(payload: String, salt: String, iterations: Int) {
        self.payload = payload
        self.salt = salt
        self.iterations = iterations
    }
}
