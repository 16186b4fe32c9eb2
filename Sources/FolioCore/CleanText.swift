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

    /// `text` for a terminal or a log: controls and the bidirectional overrides and isolates
    /// written out as `\u{…}`, everything else as it is.
    public static func shown(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isUnshowable) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if isUnshowable(scalar) {
                out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    static func isUnshowable(_ scalar: Unicode.Scalar) -> Bool {
        isControl(scalar) || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
    }

    /// C0 and C1 controls and DEL.
    package static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
