/// Which Folio this is. The version number lives here and nowhere else: the Debian package
/// takes its version from `folio --version`, which adds the build's identity (the executable's
/// CBuildIdentity, kept out of the library so a new identity recompiles only the executable).
public enum FolioVersion {
    public static let number = "0.9.0"
}
