import CBuildIdentity

/// Which Folio this is. The version number lives here and nowhere else: the Debian package
/// takes its version from `folio --version`.
public enum FolioVersion {
    public static let number = "0.9.0"

    /// "git abc1234, built 2026-11-23" when scripts/package-deb.sh built it, else "development build".
    public static let build = String(cString: folio_build_identity())

    /// What `folio --version` prints: `folio 0.9.0 (git abc1234, built 2026-11-23)`.
    public static let description = "folio \(number) (\(build))"
}
