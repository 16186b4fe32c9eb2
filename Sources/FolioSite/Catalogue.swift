import FolioCore
import Foundation

/// One language's phrases: everything a visitor reads that the theme says, as the theme ships
/// them in `templates/words/<tag>.txt` (`pl.txt`, `zh-Hans.txt`) and a site's own
/// `templates/words/` may change phrase by phrase. The templates, the Swift side and the scripts
/// all say these, so no phrase is spelled in code.
///
/// The file is plain text a translator can edit anywhere:
///
///     # a comment
///     @plural one = i = 1 and v = 0 @integer 1
///     section.places = Places
///     count.photos[one] = {count} photo
///     count.photos[other] = {count} photos
///
/// A key, " = ", its text to the end of the line; `{name}` stands for what the page fills in. A
/// phrase that counts has a line for each of the language's plural categories, `key[category]`,
/// chosen by the `@plural` rules (CLDR's, see `PluralRules`).
public struct Catalogue: Sendable, Equatable {
    /// A phrase's text: plain, or one for each plural category.
    public enum Entry: Sendable, Equatable {
        case text(String)
        case counted([PluralRules.Category: String])
    }

    /// What the file's name says, without ".txt": a language tag.
    public var tag: String
    /// The files it was read from, the theme's first, for messages.
    public var files: [String]
    public var entries: [String: Entry] = [:]
    public var plurals = PluralRules()
    /// Whether the file gave plural rules (a site's file that changes a few phrases need not).
    public var hasPlurals = false

    public init(tag: String, files: [String] = []) {
        self.tag = tag
        self.files = files
    }

    /// Reads a catalogue's text; `file` names it in messages.
    public static func parse(_ text: String, tag: String, file: String) throws -> Catalogue {
        var catalogue = Catalogue(tag: tag, files: [file])
        var seen: Set<String> = []
        for (number, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            func failure(_ reason: String) -> FolioError { FolioError(path: file, reason: "line \(number + 1): \(reason)") }
            let line = trimmed(raw)
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let equals = line.firstIndex(of: "=") else {
                throw failure("no '=' between a key and its text")
            }
            let name = String(trimmed(line[..<equals]))
            let value = String(trimmed(line[line.index(after: equals)...]))
            if name.hasPrefix("@") {
                let parts = name.split(separator: " ", omittingEmptySubsequences: true)
                guard parts.count == 2, parts[0] == "@plural", let category = PluralRules.Category(rawValue: String(parts[1])) else {
                    throw failure("'\(name)' is no setting: a catalogue has '@plural <category> = <rule>' lines")
                }
                do {
                    try catalogue.plurals.add(category, value)
                } catch {
                    throw failure("the rule for '\(category.rawValue)': \(error.reason)")
                }
                catalogue.hasPlurals = true
                continue
            }
            var key = name
            var category: PluralRules.Category?
            if name.hasSuffix("]"), let open = name.firstIndex(of: "[") {
                key = String(name[..<open])
                let inside = String(name[name.index(after: open)..<name.index(before: name.endIndex)])
                guard let found = PluralRules.Category(rawValue: inside) else {
                    throw failure("'\(inside)' is no plural category: CLDR's are zero, one, two, few, many and other")
                }
                category = found
            }
            guard !key.isEmpty, key.unicodeScalars.allSatisfy(Self.isKeyScalar), !key.hasPrefix("."), !key.hasSuffix("."),
                  !key.contains("..") else {
                throw failure("'\(name)' is no key: keys are lowercase letters, digits, '-' and '.', like section.places")
            }
            guard !value.isEmpty else { throw failure("'\(name)' has no text") }
            guard seen.insert(name).inserted else { throw failure("'\(name)' is given twice") }
            switch (catalogue.entries[key], category) {
            case (nil, nil): catalogue.entries[key] = .text(value)
            case (nil, let category?): catalogue.entries[key] = .counted([category: value])
            case (.counted(var forms)?, let category?):
                forms[category] = value
                catalogue.entries[key] = .counted(forms)
            default: throw failure("'\(key)' is given both as one text and by count")
            }
        }
        return catalogue
    }

    /// `text` without the spaces, tabs, carriage return and byte-order mark around it.
    private static func trimmed(_ text: Substring) -> Substring {
        func isSpace(_ c: Character) -> Bool { c == " " || c == "\t" || c == "\r" || c == "\u{FEFF}" || c == "\r\n" || c.isWhitespace && !c.isNewline }
        guard let first = text.firstIndex(where: { !isSpace($0) }), let last = text.lastIndex(where: { !isSpace($0) }) else { return "" }
        return text[first...last]
    }

    private static func isKeyScalar(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "-" || scalar == "."
    }

    /// This catalogue with `other`'s phrases in place of its own (a site's file over the theme's):
    /// a counted phrase form by form, and `other`'s plural rules when it has any.
    public func overridden(by other: Catalogue) -> Catalogue {
        var merged = self
        merged.files += other.files
        for (key, entry) in other.entries {
            if case .counted(let forms) = entry, case .counted(var mine)? = merged.entries[key] {
                mine.merge(forms) { $1 }
                merged.entries[key] = .counted(mine)
            } else {
                merged.entries[key] = entry
            }
        }
        if other.hasPlurals {
            merged.plurals = other.plurals
            merged.hasPlurals = true
        }
        return merged
    }
}
