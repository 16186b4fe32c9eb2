@testable import FolioSite
import Foundation
import XCTest

/// The theme's languages: every catalogue whole, every phrase asked for, counts by CLDR's rules
/// as ICU chooses them, dates in each language's own form, tags resolved as people write them.
final class LanguageTests: XCTestCase {
    static let theme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("templates")
    static let shipped = ["en", "fr", "de", "es", "pl", "ja", "zh-Hans", "ar"]

    var catalogues: [String: Catalogue]!

    override func setUpWithError() throws {
        catalogues = try Theme.catalogues(in: Self.theme)
    }

    func language(_ tag: String) -> SiteLanguage { SiteLanguage(tag: tag, catalogues: catalogues) }

    func testEveryShippedLanguageHasEveryPhraseInEachOfItsForms() throws {
        XCTAssertEqual(Set(catalogues.keys), Set(Self.shipped.map { $0.lowercased() }), "the languages shipped")
        let english = try XCTUnwrap(catalogues["en"])
        for tag in Self.shipped {
            let catalogue = try XCTUnwrap(catalogues[tag.lowercased()])
            XCTAssertEqual(language(tag).issues.map(\.reason), [], tag)
            XCTAssertEqual(Set(catalogue.entries.keys), Set(english.entries.keys), tag)
            for (key, entry) in catalogue.entries {
                // A counted phrase has each of its language's forms and no other; a plain one is plain in every language.
                switch (entry, english.entries[key]) {
                case (.counted(let forms), .counted?): XCTAssertEqual(forms.keys.sorted(), catalogue.plurals.categories, "\(tag) \(key)")
                case (.text, .text?): break
                default: XCTFail("\(tag) \(key) is counted in one language and not in the other")
                }
            }
        }
    }

    /// A phrase no one asks for is dead weight a translator still translates; one asked for and
    /// missing shows its key to visitors.
    func testEveryPhraseIsAskedForAndEveryPhraseAskedForIsThere() throws {
        var asked = Set(Phrase.allCases.map(\.rawValue))
        let files = try FileManager.default.subpathsOfDirectory(atPath: Self.theme.path)
        let templateWord = try NSRegularExpression(pattern: #"\{\{[#^/&{]?\s*words\.([a-z0-9.-]+)"#)
        // A script asks on a line that says (say, sayNodes, sayInStatus…) or counts, a key for each
        // case: say(on ? "a.b" : "a.c").
        let scriptWord = try NSRegularExpression(pattern: #"(?m)^(?=.*\b(?:say\w*|count)\().*$"#)
        let quotedKey = try NSRegularExpression(pattern: #""([a-z]+\.[a-z0-9.-]+)""#)
        var scripts = 0
        for file in files where file.hasSuffix(".mustache") || file.hasSuffix(".js") {
            let text = try String(contentsOf: Self.theme.appendingPathComponent(file), encoding: .utf8) as NSString
            let pattern = file.hasSuffix(".js") ? scriptWord : templateWord
            if file.hasSuffix(".js") { scripts += 1 }
            for match in pattern.matches(in: text as String, range: NSRange(location: 0, length: text.length)) {
                guard file.hasSuffix(".js") else {
                    asked.insert(text.substring(with: match.range(at: 1)))
                    continue
                }
                let line = text.substring(with: match.range) as NSString
                for key in quotedKey.matches(in: line as String, range: NSRange(location: 0, length: line.length)) {
                    asked.insert(line.substring(with: key.range(at: 1)))
                }
            }
        }
        XCTAssertGreaterThan(scripts, 5)
        let english = Set(try XCTUnwrap(catalogues["en"]).entries.keys)
        XCTAssertEqual(asked.subtracting(english).sorted(), [], "asked for, in no catalogue")
        XCTAssertEqual(english.subtracting(asked).sorted(), [], "in the catalogues, asked for by no one")
    }

    /// Each catalogue's rules choose as ICU does (the browser's `Intl.PluralRules`, which the scripts
    /// use): the reference is Node's ICU, every whole number to 1200 and some large ones.
    func testPluralRulesChooseAsICUDoes() throws {
        struct Reference: Decodable {
            var categories: [String: String]
            var large: [String: [String: String]]
        }
        let url = Self.theme.deletingLastPathComponent().appendingPathComponent("Tests/Fixtures/Words/plural-categories.json")
        let reference = try JSONDecoder().decode(Reference.self, from: Data(contentsOf: url))
        let codes: [Character: PluralRules.Category] = ["z": .zero, "1": .one, "2": .two, "f": .few, "m": .many, "o": .other]
        for tag in Self.shipped {
            let rules = try XCTUnwrap(catalogues[tag.lowercased()]).plurals
            let expected = try XCTUnwrap(reference.categories[tag])
            for (n, code) in expected.enumerated() where rules.category(n) != codes[code] {
                XCTFail("\(tag): \(n) is \(codes[code]!) for ICU, \(rules.category(n)) here")
            }
            for (n, category) in try XCTUnwrap(reference.large[tag]) {
                XCTAssertEqual(rules.category(Int(n)!).rawValue, category, "\(tag) \(n)")
            }
            // CLDR's own samples, as the catalogue copies them, fall in their categories.
            for (category, samples) in rules.samples {
                for n in samples { XCTAssertEqual(rules.category(n), category, "\(tag) sample \(n)") }
            }
        }
    }

    /// Every form of every language is said for a count that takes it.
    func testCountsTakeEachFormOfEachLanguage() throws {
        for tag in Self.shipped {
            let language = language(tag)
            let catalogue = try XCTUnwrap(catalogues[tag.lowercased()])
            guard case .counted(let forms)? = catalogue.entries["count.photos"] else { return XCTFail(tag) }
            for category in catalogue.plurals.categories where category != .other || tag == "ja" || tag == "zh-Hans" || tag == "en" {
                let n = try XCTUnwrap((0...2_000_000).lazy.first { catalogue.plurals.category($0) == category }, "\(tag) \(category)")
                XCTAssertEqual(language.count(.countPhotos, n), PhraseText(forms[category]!).filled([("count", language.number(n))]),
                               "\(tag) \(n)")
            }
        }
        let pl = language("pl")
        XCTAssertEqual([1, 2, 5, 12, 22, 25, 102, 112].map { pl.count(.countPhotos, $0) },
                       ["1 zdjęcie", "2 zdjęcia", "5 zdjęć", "12 zdjęć", "22 zdjęcia", "25 zdjęć", "102 zdjęcia", "112 zdjęć"])
        let ar = language("ar")
        XCTAssertEqual([0, 1, 2, 3, 11, 100].map { ar.count(.countPhotos, $0) },
                       ["لا توجد صور", "صورة واحدة", "صورتان", "\(ar.number(3)) صور", "\(ar.number(11)) صورة", "\(ar.number(100)) صورة"],
                       "Arabic's six forms")
        XCTAssertEqual(language("en").count(.countPhotos, 1), "1 photo")
        XCTAssertEqual(language("en").count(.countPhotos, 1234), "1,234 photos")
        XCTAssertEqual(language("fr").count(.countPhotos, 1_000_000), "1\u{202F}000\u{202F}000 de photos")
        XCTAssertEqual(language("ja").count(.countPhotos, 3), "3枚の写真")
    }

    func testDatesAndTimesInEachLanguagesOwnForm() {
        let date = Date(timeIntervalSince1970: 1_347_897_180)  // 17 September 2012, 15:53 UTC
        XCTAssertEqual(language("en").day(date), "17 September 2012")
        XCTAssertEqual(language("en").dateTime(date), "17 September 2012, 15:53", "Folio's English, as it always was")
        XCTAssertEqual(language("en-US").day(date), "September 17, 2012")
        XCTAssertEqual(language("pl").day(date), "17 września 2012")
        XCTAssertEqual(language("de").day(date), "17. September 2012")
        XCTAssertEqual(language("fr").dateTime(date), "17 septembre 2012 à 15:53")
        XCTAssertEqual(language("ja").day(date), "2012年9月17日")
        XCTAssertEqual(language("zh-Hans").day(date), "2012年9月17日")
        XCTAssertTrue(language("ar").day(date).contains("سبتمبر"), language("ar").day(date))
        XCTAssertEqual(language("fr").hoursAgo(3), "il y a 3 heures")
        XCTAssertEqual(language("de").hoursAgo(1), "vor 1 Stunde")
        let later = Date(timeIntervalSince1970: 1_352_000_000)
        XCTAssertEqual(language("en").days(from: date, to: later), "17 September\u{2009}–\u{2009}4 November 2012",
                       "the year both days share said once")
    }

    func testTagsResolveAsPeopleWriteThem() {
        XCTAssertEqual(language("en-GB").catalogue?.tag, "en")
        XCTAssertEqual(language("PL").catalogue?.tag, "pl")
        XCTAssertEqual(language("pl_PL").catalogue?.tag, "pl")
        for tag in ["zh", "zh-CN", "zh-Hans", "zh-hans-SG"] { XCTAssertEqual(language(tag).catalogue?.tag, "zh-Hans", tag) }
        XCTAssertTrue(language("ar-EG").rightToLeft)
        XCTAssertFalse(language("fr").rightToLeft)
        // Traditional Chinese is not Simplified; Portuguese has no catalogue: English words,
        // the language's own dates, and the build says so.
        for tag in ["zh-TW", "pt-BR"] {
            let language = language(tag)
            XCTAssertNil(language.catalogue, tag)
            XCTAssertEqual(language.say(.sectionPlaces), "Places")
            XCTAssertEqual(language.issues.count, 1, tag)
            XCTAssertTrue(language.issues.first?.reason.contains("no catalogue for the language '\(tag)'") == true, tag)
        }
        XCTAssertEqual(language("pt-BR").day(Date(timeIntervalSince1970: 1_347_897_180)), "17 de setembro de 2012")
    }

    /// A site's own `words/pl.txt` changes the phrases it names and leaves the rest to the theme's.
    func testASiteChangesAPhraseAndTheBuildSaysWhatALanguageLacks() throws {
        let site = try Catalogue.parse("section.places = Gdzie\ncount.photos[few] = {count} fotki\nno.such = x\n", tag: "pl", file: "site/pl.txt")
        var all = catalogues!
        all["pl"] = all["pl"]!.overridden(by: site)
        let language = SiteLanguage(tag: "pl", catalogues: all)
        XCTAssertEqual(language.say(.sectionPlaces), "Gdzie")
        XCTAssertEqual(language.say(.sectionPeople), "Osoby")
        XCTAssertEqual(language.count(.countPhotos, 3), "3 fotki")
        XCTAssertEqual(language.count(.countPhotos, 5), "5 zdjęć")
        XCTAssertEqual(language.issues.map(\.reason), ["no phrase of the theme is called 'no.such': ignored"])

        var lacking = catalogues!
        lacking["pl"]!.entries["section.map"] = nil
        let partial = SiteLanguage(tag: "pl", catalogues: lacking)
        XCTAssertEqual(partial.say(.sectionMap), "Map", "English where the language lacks a phrase")
        XCTAssertEqual(partial.issues.map(\.reason), ["1 phrase missing (section.map): said in English"])
        XCTAssertThrowsError(try Catalogue.parse("count.photos[several] = x", tag: "pl", file: "pl.txt")) { error in
            XCTAssertTrue("\(error)".contains("pl.txt"), "\(error)")
            XCTAssertTrue("\(error)".contains("line 1"), "\(error)")
        }
    }

    /// A site reads English's catalogue and its own language's, no other: another language's file
    /// that does not read stops only a site in that language, and says where.
    func testASiteReadsOnlyTheCataloguesItSpeaks() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-words-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("words"), withIntermediateDirectories: true)
        for tag in ["en", "pl"] {
            try FileManager.default.copyItem(at: Self.theme.appendingPathComponent("words/\(tag).txt"),
                                             to: folder.appendingPathComponent("words/\(tag).txt"))
        }
        try Data("section.places = Orte\nthis line has no equals sign\n".utf8).write(to: folder.appendingPathComponent("words/de.txt"))
        let words = try Theme.words(in: folder)
        XCTAssertEqual(words.tags, ["en", "pl", "de"])
        XCTAssertEqual(try SiteLanguage(tag: "pl-PL", words: words).say(.sectionPlaces), "Miejsca")
        XCTAssertEqual(try SiteLanguage(tag: "fr", words: words).say(.sectionPlaces), "Places", "no French: English words")
        XCTAssertThrowsError(try SiteLanguage(tag: "de", words: words)) { error in
            XCTAssertTrue("\(error)".contains("de.txt"), "\(error)")
            XCTAssertTrue("\(error)".contains("line 2"), "\(error)")
        }
    }
}
