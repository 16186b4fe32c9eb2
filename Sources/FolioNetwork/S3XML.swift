import Foundation

/// The few fields Folio reads from S3's XML answers (keys, sizes, upload ids, error codes):
/// elements by name, their text unescaped. S3's documents are flat enough that this is all a
/// reader needs.
enum S3XML {
    /// The text of every `<name>…</name>` in `xml`, in order.
    static func values(_ name: String, in xml: String) -> [String] {
        var found: [String] = []
        var rest = xml[...]
        while let open = rest.range(of: "<\(name)>") {
            guard let close = rest.range(of: "</\(name)>", range: open.upperBound..<rest.endIndex) else { break }
            found.append(unescape(String(rest[open.upperBound..<close.lowerBound])))
            rest = rest[close.upperBound...]
        }
        return found
    }

    static func value(_ name: String, in xml: String) -> String? { values(name, in: xml).first }

    /// The `<element>…</element>` blocks of `name`, each as text to read values from.
    static func blocks(_ name: String, in xml: String) -> [String] {
        var found: [String] = []
        var rest = xml[...]
        while let open = rest.range(of: "<\(name)>") {
            guard let close = rest.range(of: "</\(name)>", range: open.upperBound..<rest.endIndex) else { break }
            found.append(String(rest[open.upperBound..<close.lowerBound]))
            rest = rest[close.upperBound...]
        }
        return found
    }

    static func unescape(_ text: String) -> String {
        guard text.contains("&") else { return text }
        return text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
            .replacingOccurrences(of: "&#34;", with: "\"").replacingOccurrences(of: "&amp;", with: "&")
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
