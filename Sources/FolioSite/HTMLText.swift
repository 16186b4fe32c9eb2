/// Text for HTML, escaped as the templates escape a value (`{{value}}`): `& < > " '`. Mustache's
/// drawing and the phrases the Swift side puts markup into (`SiteLanguage.html`) both use it, so a
/// phrase reads the same whichever of them wrote it.
enum HTMLText {
    static func escape(_ text: String) -> String {
        var out = ""
        escape(text, into: &out)
        return out
    }

    /// What HTML needs escaped in text and in an attribute in double quotes: `& < > "`; an
    /// apostrophe stays as the theme's own text has it.
    static func escapeQuoted(_ text: String) -> String {
        var out = ""
        escape(text, into: &out, apostrophe: false)
        return out
    }

    /// `text` escaped onto `out`, the runs between entities appended whole: nearly every value has
    /// nothing to escape, and is appended as it is.
    static func escape(_ text: String, into out: inout String, apostrophe: Bool = true) {
        var text = text
        let plain = text.withUTF8 { bytes -> Bool in
            var start = 0
            for (at, byte) in bytes.enumerated() {
                let entity: String
                switch byte {
                case UInt8(ascii: "&"): entity = "&amp;"
                case UInt8(ascii: "<"): entity = "&lt;"
                case UInt8(ascii: ">"): entity = "&gt;"
                case UInt8(ascii: "\""): entity = "&quot;"
                case UInt8(ascii: "'") where apostrophe: entity = "&#39;"
                default: continue
                }
                if at > start { out += String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<at]), as: UTF8.self) }
                out += entity
                start = at + 1
            }
            if start == 0 { return true }
            if start < bytes.count { out += String(decoding: UnsafeBufferPointer(rebasing: bytes[start...]), as: UTF8.self) }
            return false
        }
        if plain { out += text }
    }
}
