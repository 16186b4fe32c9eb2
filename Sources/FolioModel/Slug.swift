import Foundation

/// URL-safe names for pages: lowercase ASCII letters, digits and dashes.
package enum Slug {
    static func make(_ text: String) -> String {
        let folded = text.folding(options: [.diacriticInsensitive, .caseInsensitive, .widthInsensitive], locale: Locale(identifier: "en_US_POSIX"))
        var slug = ""
        var pendingDash = false
        for scalar in folded.unicodeScalars {
            if scalar.isASCII, CharacterSet.alphanumerics.contains(scalar) {
                if pendingDash, !slug.isEmpty { slug.append("-") }
                slug.unicodeScalars.append(scalar)
                pendingDash = false
            } else {
                pendingDash = true
            }
        }
        return slug.isEmpty ? "untitled" : String(slug.prefix(60))
    }

    /// The names of the pages a folder has of its own (`people/index.html`,
    /// `favorites/all.html`): no person, place or region may take them.
    static let reserved: Set<String> = ["index", "all"]

    /// A slug for `text` that is neither in `taken` nor reserved, adding "-2", "-3"… when
    /// needed; records it as taken.
    package static func unique(_ text: String, in taken: inout Set<String>) -> String {
        let base = make(text)
        var candidate = base
        var n = 2
        while taken.contains(candidate) || reserved.contains(candidate) {
            candidate = "\(base)-\(n)"
            n += 1
        }
        taken.insert(candidate)
        return candidate
    }
}
