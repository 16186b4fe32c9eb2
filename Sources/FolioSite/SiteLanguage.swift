import FolioCore
import Foundation
import Synchronization

/// The site's `language` as its pages speak it: the theme's catalogue for it (with the site's own
/// phrases over it), English for any phrase it lacks, and ICU's forms of numbers and dates for the
/// tag as written. A tag resolves as people write it: "en-GB" and "en" find `en.txt`; "zh-CN",
/// "zh-Hans" and "zh" find `zh-Hans.txt`; "zh-TW" does not (it is Traditional Chinese) and, like
/// "pt-BR" with no Portuguese catalogue, speaks English words with its own dates.
///
/// Words are chosen here when pages are drawn: the model keeps none.
public struct SiteLanguage: Sendable {
    /// The `language` setting as written: the pages' `lang`.
    public let tag: String
    /// The catalogue found for the tag; nil when there is none (its words are English).
    public let catalogue: Catalogue?
    /// English, which every phrase falls back to.
    public let english: Catalogue
    /// How numbers and dates are written and names ordered (ICU, through Foundation).
    public var locale: Locale { forms.locale }
    /// The same locale as the theme's scripts give `Intl`.
    public let localeTag: String
    /// Whether the language is written right to left (ICU's character order for the tag).
    public var rightToLeft: Bool { forms.rightToLeft }
    /// What the build says once about the catalogues: phrases a language lacks, and the like.
    public let issues: [BuildIssue]
    /// Each phrase, resolved: its entry, and the plural rules that choose its form.
    private let phrases: [String: (entry: Catalogue.Entry, plurals: PluralRules, fallback: Bool)]
    /// The phrases the Swift side says, each cut at its names once.
    private let said: [Phrase: Said]
    private enum Said: Sendable {
        case text(PhraseText)
        case counted([PluralRules.Category: PhraseText], PluralRules)
    }
    /// ICU's forms, made when first asked for: a build with nothing to draw never loads them.
    private let forms: Forms
    private var dates: DateWords { forms.dates }

    /// `catalogues` by tag, lowercased: the theme's, each with the site's file of the same name over it.
    public init(tag: String, catalogues: [String: Catalogue]) {
        self.tag = tag
        let english = catalogues["en"] ?? Catalogue(tag: "en")
        self.english = english
        // A tag as a catalogue is named needs no look at ICU's subtags.
        let found = catalogues[tag.lowercased()] ?? Self.candidates(tag).lazy.compactMap { catalogues[$0.lowercased()] }.first
        catalogue = found
        localeTag = Self.localeTag(for: tag)
        var phrases: [String: (entry: Catalogue.Entry, plurals: PluralRules, fallback: Bool)] = [:]
        for (key, entry) in english.entries { phrases[key] = (entry, english.plurals, true) }
        var issues: [BuildIssue] = []
        if let found, found.tag.lowercased() != "en" {
            let file = found.files.last ?? "\(found.tag).txt"
            var lacking: [String] = []
            for key in english.entries.keys.sorted() {
                guard let entry = found.entries[key] else {
                    lacking.append(key)
                    continue
                }
                if case .counted(let forms) = entry {
                    let needed = found.plurals.categories.filter { forms[$0] == nil }
                    if !needed.isEmpty { lacking.append(key + needed.map { "[\($0.rawValue)]" }.joined()) }
                    if forms[.other] == nil { continue }
                }
                phrases[key] = (entry, found.plurals, false)
            }
            if !lacking.isEmpty {
                let shown = lacking.prefix(8).joined(separator: ", ") + (lacking.count > 8 ? ", …" : "")
                issues.append(.warning(file, "\(Wording.count(lacking.count, "phrase")) missing (\(shown)): said in English"))
            }
            if !found.hasPlurals {
                issues.append(.warning(file, "no @plural rules: counts take the 'other' form"))
            }
        } else if found == nil {
            issues.append(.warning("templates/words/", "no catalogue for the language '\(tag)': pages say English words, "
                                   + "with \(tag)'s dates and numbers"))
        }
        for catalogue in [english] + (found.map { [$0] } ?? []) {
            let unknown = catalogue.entries.keys.filter { english.entries[$0] == nil }.sorted()
            if catalogue.tag.lowercased() != "en", !unknown.isEmpty {
                issues.append(.warning(catalogue.files.last ?? catalogue.tag, "no phrase of the theme is called "
                                       + unknown.prefix(8).map { "'\($0)'" }.joined(separator: ", ") + ": ignored"))
            }
        }
        self.phrases = phrases
        var said: [Phrase: Said] = [:]
        for phrase in Phrase.allCases {
            switch phrases[phrase.rawValue]?.entry {
            case .text(let text)?: said[phrase] = .text(PhraseText(text))
            case .counted(let forms)?: said[phrase] = .counted(forms.mapValues(PhraseText.init), phrases[phrase.rawValue]!.plurals)
            case nil: break
            }
        }
        self.said = said
        self.issues = issues
        forms = Forms(tag: tag, localeTag: localeTag)
    }

    /// The language of `tag` in a theme's words: English's catalogue and the one the tag finds are
    /// read, no other.
    public init(tag: String, words: ThemeWords) throws {
        let tags = words.tags
        let found = tags.contains(tag.lowercased()) ? tag : Self.candidates(tag).first { tags.contains($0.lowercased()) }
        var catalogues: [String: Catalogue] = [:]
        for read in Set(["en"] + (found.map { [$0.lowercased()] } ?? [])) {
            catalogues[read] = try words.catalogue(read)
        }
        self.init(tag: tag, catalogues: catalogues)
    }

    /// English alone, from the default theme: for builders and renderers made without a
    /// configured site (tests, the benchmark). A build resolves the site's own.
    public static let defaultTheme: SiteLanguage = {
        let words = Theme.defaultFolder().flatMap { try? Theme.words(in: $0) } ?? ThemeWords()
        return (try? SiteLanguage(tag: "en", words: words)) ?? SiteLanguage(tag: "en", catalogues: [:])
    }()

    /// The catalogues a tag may find, most specific first: as written, then with its script
    /// (ICU's likely subtags: "zh-CN" is "zh-Hans-CN"), each less its region, then the bare
    /// language.
    static func candidates(_ tag: String) -> [String] {
        let written = tag.replacingOccurrences(of: "_", with: "-").trimmingCharacters(in: .whitespaces)
        let language = Locale.Language(identifier: written)
        var list = [written]
        if let code = language.languageCode?.identifier {
            let script = language.script?.identifier ?? Locale.Language(identifier: written).maximalIdentifier
                .split(separator: "-").dropFirst().first { $0.count == 4 }.map(String.init)
            let region = language.region?.identifier
            if let script {
                if let region { list.append("\(code)-\(script)-\(region)") }
                list.append("\(code)-\(script)")
            }
            if let region { list.append("\(code)-\(region)") }
            list.append(code)
        }
        var seen: Set<String> = []
        return list.filter { seen.insert($0.lowercased()).inserted }
    }

    /// The locale numbers and dates are written in: the tag, but a bare "en", which CLDR takes
    /// for American English, is English for anyone (CLDR's en-001: "28 November 2025") with the
    /// 24-hour clock Folio's English pages have always had; "en-US" says "November 28, 2025, 2:10 AM".
    static func localeTag(for tag: String) -> String {
        let written = tag.replacingOccurrences(of: "_", with: "-").trimmingCharacters(in: .whitespaces)
        return written.lowercased() == "en" ? "en-001-u-hc-h23" : written
    }

    // MARK: - Phrases

    /// A phrase's text, its `{name}`s filled from `values` (a counted phrase: its `other` form).
    public func say(_ phrase: Phrase, _ values: KeyValuePairs<String, String> = [:]) -> String {
        guard let said = compiled(phrase, count: nil) else { return phrase.rawValue }
        return values.isEmpty ? said.text : said.filled(values.map { ($0.key, $0.value) })
    }

    /// A counted phrase, in the form its language gives `count`, which fills `{count}` as the
    /// locale writes numbers.
    public func count(_ phrase: Phrase, _ count: Int, _ values: KeyValuePairs<String, String> = [:]) -> String {
        guard let said = compiled(phrase, count: count) else { return phrase.rawValue }
        var all = [("count", number(count))]
        all += values.map { ($0.key, $0.value) }
        return said.filled(all)
    }

    /// What the Swift side says of `phrase` (its form for `count`), cut at its names.
    private func compiled(_ phrase: Phrase, count: Int?) -> PhraseText? {
        switch said[phrase] {
        case .text(let text)?: return text
        case .counted(let forms, let plurals)?:
            let category = count.map(plurals.category) ?? .other
            return forms[category] ?? forms[.other] ?? forms.values.first
        case nil: return nil
        }
    }

    /// A phrase as HTML: its text escaped as templates escape it, each `{name}` that `markup`
    /// names replaced by that markup as it is (a link, a span), the rest from `values`, escaped.
    public func html(_ phrase: Phrase, count: Int? = nil, values: KeyValuePairs<String, String> = [:],
                     markup: KeyValuePairs<String, String>) -> String {
        var escaped = values.map { ($0.key, HTMLText.escape($0.value)) }
        if let count { escaped.append(("count", HTMLText.escape(number(count)))) }
        escaped += markup.map { ($0.key, $0.value) }
        // The phrase's own words escaped, the values and the markup put in after.
        let said = compiled(phrase, count: count) ?? PhraseText(phrase.rawValue)
        return said.filled(words: HTMLText.escape) { name in escaped.first { $0.0 == name }?.1 }
    }

    // MARK: - Numbers and dates

    /// A count as the locale writes it: "1,234", "1 234", "١٬٢٣٤".
    public func number(_ n: Int) -> String { dates.number(n) }

    /// A number as the locale writes its digits, ungrouped: a size in pixels, "4032".
    public func digits(_ n: Int) -> String { dates.digits(n) }

    /// "4 July 2021", "4 juillet 2021", "2021年7月4日": the day, in UTC.
    public func day(_ date: Date) -> String { dates.day(date) }

    /// The day and the time of day, in UTC, with the locale's clock (24 or 12 hours), joined as
    /// the catalogue's `date.day-time` says: "4 July 2021, 09:05".
    public func dateTime(_ date: Date) -> String {
        say(.dateDayTime, ["day": dates.day(date), "time": dates.time(date)])
    }

    /// "3 March – 20 November 2026": the days from `first` to `last`, what they share said once.
    public func days(from first: Date, to last: Date) -> String { dates.days(from: first, to: last) }

    /// "3 hours ago", "il y a 3 heures", as ICU says it.
    public func hoursAgo(_ hours: Int) -> String { dates.hoursAgo(hours) }

    /// Names one after another as the language lists them briefly: "Ann, Bob, Cy", "Ann、Bob".
    public func list(_ names: [String]) -> String { dates.list(names) }

    // MARK: - For the templates and the scripts

    /// Every plain phrase, as templates ask for them: `{{words.section.places}}` (the key's parts
    /// nested, so a key is never both a phrase and the start of another's), each HTML already:
    /// `&`, `<`, `>` and `"` escaped, an apostrophe left as the theme's own text has it.
    var templateWords: TemplateValue {
        var root = Node()
        for (key, found) in phrases {
            guard case .text(let text) = found.entry else { continue }
            root.insert(key.split(separator: ".").map(String.init), text)
        }
        return root.value
    }

    private struct Node {
        var children: [String: Node] = [:]
        var text: String?

        mutating func insert(_ path: [String], _ text: String) {
            guard let first = path.first else {
                self.text = text
                return
            }
            children[first, default: Node()].insert(Array(path.dropFirst()), text)
        }

        var value: TemplateValue {
            if let text, children.isEmpty { return .markup(HTMLText.escapeQuoted(text)) }
            let names = children.keys.sorted()
            return .object(TemplateObject(names: names, values: names.map { children[$0]!.value }))
        }
    }

    /// What the theme's scripts say, as the script that heads `assets/folio.js`: every phrase
    /// (a counted one's forms by category), the language whose plural rules choose each (English
    /// for those said in English), the locale `Intl` writes numbers and dates in, and the direction.
    public var scriptWords: String {
        var phrases: [String] = []
        var english: [String] = []
        for key in self.phrases.keys.sorted() {
            let found = self.phrases[key]!
            if found.fallback, catalogue?.tag.lowercased() != "en" { english.append(JSONText.string(key)) }
            switch found.entry {
            case .text(let text): phrases.append(JSONText.string(key) + ":" + JSONText.string(text))
            case .counted(let forms):
                let shown = forms.sorted { $0.key < $1.key }.map { JSONText.string($0.key.rawValue) + ":" + JSONText.string($0.value) }
                phrases.append(JSONText.string(key) + ":{" + shown.joined(separator: ",") + "}")
            }
        }
        let language = catalogue?.tag ?? "en"
        return "/* The site's words, written by the build from templates/words/ (see SiteLanguage). */\n"
            + "window.folioWords = {\"locale\":\(JSONText.string(localeTag)),\"plurals\":\(JSONText.string(language)),"
            + "\"english\":[\(english.joined(separator: ","))],\"dir\":\"\(rightToLeft ? "rtl" : "ltr")\",\n"
            + "\"phrases\":{\n" + phrases.joined(separator: ",\n") + "}};\n"
    }
}

/// The ICU side of a language, each made on first use and kept: how it writes numbers and dates,
/// and its direction.
private final class Forms: Sendable {
    let tag: String
    let localeTag: String
    private let made = Mutex<(locale: Locale?, dates: DateWords?, rightToLeft: Bool?)>((nil, nil, nil))

    init(tag: String, localeTag: String) {
        self.tag = tag
        self.localeTag = localeTag
    }

    var locale: Locale {
        made.withLock { made in
            if let locale = made.locale { return locale }
            let locale = Locale(identifier: localeTag)
            made.locale = locale
            return locale
        }
    }

    var dates: DateWords {
        if let dates = made.withLock({ $0.dates }) { return dates }
        let dates = DateWords(locale: locale)
        return made.withLock { made in
            if let first = made.dates { return first }
            made.dates = dates
            return dates
        }
    }

    var rightToLeft: Bool {
        made.withLock { made in
            if let known = made.rightToLeft { return known }
            let rightToLeft = Locale.Language(identifier: tag).characterDirection == .rightToLeft
            made.rightToLeft = rightToLeft
            return rightToLeft
        }
    }
}
