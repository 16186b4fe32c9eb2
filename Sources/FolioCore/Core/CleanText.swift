/// Text from outside (catalogs, EXIF, and what the new readers bring) as Folio keeps it: without
/// control characters. A NUL cuts a C string short, so SQLite hands such a name back cut and it
/// no longer matches itself; the other controls are invisible at best.
public enum CleanText {
    /// `text` without control characters; breaks and tabs become spaces (a name, a title).
    public static func line(_ text: String) -> String {
        clean(text, keepingBreaks: false)
    }

    /// `text` without control characters but line breaks and tabs (a description).
    public static func paragraph(_ text: String) -> String {
        clean(text, keepingBreaks: true)
    }

    static func clean(_ text: String, keepingBreaks: Bool) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n", "\r", "\t": scalars.append(keepingBreaks ? scalar : " ")
            case _ where isControl(scalar): continue
            default: scalars.append(scalar)
            }
        }
        return String(scalars)
    }

    /// C0 and C1 controls and DEL.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
