@testable import FolioSite
import Foundation
import XCTest

/// Search folds text twice: here when the build writes the index, and in the visitor's browser
/// (`assets/search.js`) when they type. This writes what Swift makes of a few hundred hostile
/// strings to `Tests/Browser/Fixtures/folding.json`, which `Tests/Browser/test_text_folding.py`
/// holds the script to in a real Chromium. The file must be what this Folio folds: when folding
/// changes on purpose, record it again with `FOLIO_RECORD_GOLDEN=1`.
final class SearchTextAgreementTests: XCTestCase {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../Browser/Fixtures/folding.json").standardizedFileURL

    /// Text that folds differently in different hands: marks, ligatures, special casings, scripts
    /// written right to left or without spaces, emoji, normal forms.
    static let atoms: [String] = [
        "", " ", "a", "A", "Éze", "E\u{301}ze", "e\u{301}\u{301}\u{323}", "\u{301}", "\u{301}a", "Z\u{335}\u{316}\u{33A}a\u{36B}l\u{352}g\u{315}o",
        "Café", "CAFÉ", "café crème", "Ångström", "A\u{30A}ngstro\u{308}m", "Øresund", "Łódź", "Đà Nẵng", "Việt Nam", "Nguyễn",
        "ﬁre", "ﬀ", "ﬃ", "Æsir", "œuvre", "Œ", "Ĳssel", "ǄEMAL", "ǅemal", "ǆ", "ŉ", "ﬅ", "ﬆ",
        "İstanbul", "ISTANBUL", "ıssız", "DİYARBAKIR", "i\u{307}", "I\u{307}", "Iı İi",
        "Straße", "STRASSE", "ẞ", "Maßstab", "ß",
        "ΟΔΟΣ", "Οδός", "ΣΟΦΟΣ ΣΟΦΟΣ", "σοφος", "ς", "Σ", "ΑΣ.", "ΑΣ1", "Σ ", "ΌΣΟΣ", "Ὀδυσσεύς", "ᾼ", "ῼ", "ΐ", "ΰ",
        "東京タワー", "東京", "ｶﾀｶﾅ", "ＡＢＣ１２３", "が", "か\u{3099}", "한국어", "\u{1112}\u{1161}\u{11AB}", "中文 字", "ㄱ", "〇", "々",
        "😀", "👍🏽", "👨‍👩‍👧", "1️⃣", "🇫🇷", "♥", "★", "©2024", "™",
        "العربية", "مَدْرَسَة", "עִבְרִית", "ש\u{5C1}", "\u{202E}txet\u{202C}", "\u{200F}abc", "فارسی ۱۲۳",
        "हिन्दी", "தமிழ்", "ไทย", "ກາ", "ᏣᎳᎩ", "Ꭰ", "𐐀𐐨", "Ⅻ", "ⅻ", "①②", "²", "½", "٣", "߀",
        "ﬀoo", "ℌ", "ℵ", "\u{2126}", "\u{3A9}", "\u{212A}", "\u{212B}", "µ", "ſ", "ǰ", "ẖ", "Ｉ", "ᲐᲑ", "ა",
        "寺 temple", "golden g", "金閣寺 寺", "a 東", "東 京",
        "a\u{200D}b", "a\u{200B}b", "a\u{AD}b", "a\u{FEFF}b", "a\u{00A0}b", "a\u{3000}b", "a\tb\nc", "a_b", "a-b", "a'b", "a’b", "x·y",
        "\u{E000}", "\u{10FFFD}", "\u{FFFD}", "\u{1F3FB}", "\u{FE0F}", "\u{20DD}", "a\u{20DD}", "\u{1D400}\u{1D41A}",
    ]

    /// The atoms, and each beside others, in upper case, decomposed and composed.
    static func strings() -> [String] {
        var all: [String] = []
        for (i, atom) in atoms.enumerated() {
            all.append(atom)
            all.append(atom.uppercased())
            all.append(atom.decomposedStringWithCanonicalMapping)
            all.append(atom.precomposedStringWithCanonicalMapping)
            all.append("Word" + atom + "word " + atoms[(i * 7 + 3) % atoms.count])
        }
        var seen: Set<[Unicode.Scalar]> = []
        return all.filter { seen.insert(Array($0.unicodeScalars)).inserted }
    }

    /// What the fixture holds: every string, its folding and its words, as the build makes them.
    static func fixtureData() throws -> Data {
        let cases = strings().map { text -> [String: Any] in
            ["text": text, "fold": SearchText.fold(text), "words": SearchText.words(text), "query": SearchText.queryWords(text)]
        }
        return try JSONSerialization.data(withJSONObject: cases, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
    }

    func testTheBrowsersFixtureIsWhatSwiftFolds() throws {
        let data = try Self.fixtureData()
        if ProcessInfo.processInfo.environment["FOLIO_RECORD_GOLDEN"] == "1" {
            try FileManager.default.createDirectory(at: Self.fixture.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: Self.fixture)
        }
        let recorded = try Data(contentsOf: Self.fixture)
        XCTAssertEqual(recorded, data, "\(Self.fixture.path) is not what SearchText folds now (FOLIO_RECORD_GOLDEN=1 records it again)")
        XCTAssertGreaterThan(Self.strings().count, 300)
    }

    /// Accents come off where they are accents; where a mark makes another letter it stays.
    func testAMarkIsDroppedOnlyWhereItIsAnAccent() {
        XCTAssertEqual(SearchText.fold("Éze Łódź Việt"), "eze łodz viet")
        XCTAssertEqual(SearchText.fold("مَدْرَسَة"), "مدرسة", "Arabic's vowel marks")
        XCTAssertEqual(SearchText.fold("עִבְרִית"), "עברית", "Hebrew's points")
        XCTAssertEqual(SearchText.fold("がぎぐ パ"), "がぎぐ パ", "Japanese voicing marks make other kana")
        XCTAssertEqual(SearchText.fold("か\u{3099}"), "が", "composed again")
        XCTAssertNotEqual(SearchText.words("ガラス"), SearchText.words("カラス"), "glass is not a crow")
        XCTAssertEqual(SearchText.words("हिन्दी"), ["हिन्दी"], "a Devanagari word keeps its vowel signs")
        XCTAssertEqual(SearchText.words("ไทย"), ["ไทย"])
    }

    func testAFinalSigmaIsASigma() {
        // Browsers lowercase a word-final Σ to ς, Swift to σ: search takes both as σ.
        XCTAssertEqual(SearchText.fold("ΟΔΟΣ"), "οδοσ")
        XCTAssertEqual(SearchText.fold("οδος"), "οδοσ")
        XCTAssertEqual(SearchText.words("Ὀδυσσεύς"), ["οδυσσευσ"])
    }

    /// ASCII text takes a short way through `words`: it must cut every ASCII text as the general
    /// way does, every byte from NUL to DEL included.
    func testASCIITextIsCutAsAnyTextIs() {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<128).map { UInt8($0) }
        var texts = bytes.map { String(decoding: [UInt8(ascii: "a"), $0, UInt8(ascii: "B"), $0], as: UTF8.self) }
        for _ in 0..<2_000 {
            let length = Int.random(in: 0...24, using: &generator)
            texts.append(String(decoding: (0..<length).map { _ in bytes.randomElement(using: &generator)! }, as: UTF8.self))
        }
        for text in texts {
            XCTAssertEqual(SearchText.asciiWords(text), SearchText.scalarWords(text), "\(Array(text.utf8))")
        }
        XCTAssertNil(SearchText.asciiWords("Café"), "text that is not all ASCII goes the general way")
        XCTAssertEqual(SearchText.words("Café"), ["cafe"])
    }
}
