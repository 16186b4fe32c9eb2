@testable import FolioCore
@testable import FolioSite
import FolioTestSupport
import Foundation
import XCTest

/// Folio's Mustache engine against the Mustache specification's own tests (the core modules and
/// inheritance, `Fixtures/mustache-spec`): a site's own templates are drawn as any Mustache
/// would draw them.
final class MustacheSpecTests: XCTestCase {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/mustache-spec")

    /// A spec file's test: its data as JSON says, templates, and what they must draw.
    struct SpecTest: Decodable {
        var name: String
        var data: JSON
        var template: String
        var partials: [String: String]?
        var expected: String
    }

    /// JSON as it comes, turned into the values `TemplateEncoder` gives templates.
    enum JSON: Decodable {
        case object([String: JSON]), list([JSON]), text(String), integer(Int), real(Double), flag(Bool), null

        init(from decoder: any Decoder) throws {
            let single = try decoder.singleValueContainer()
            if single.decodeNil() { self = .null }
            else if let flag = try? single.decode(Bool.self) { self = .flag(flag) }
            else if let integer = try? single.decode(Int.self) { self = .integer(integer) }
            else if let real = try? single.decode(Double.self) { self = .real(real) }
            else if let text = try? single.decode(String.self) { self = .text(text) }
            else if let list = try? single.decode([JSON].self) { self = .list(list) }
            else { self = .object(try single.decode([String: JSON].self)) }
        }

        var value: TemplateValue {
            switch self {
            case .object(let fields):
                let names = fields.keys.sorted()
                return .object(TemplateObject(names: names, values: names.map { fields[$0]!.value }))
            case .list(let items): return .list(items.map(\.value))
            case .text(let text): return .text(text)
            case .integer(let integer): return .number(integer)
            case .real(let real): return .real(real)
            case .flag(let flag): return .flag(flag)
            case .null: return .null
            }
        }
    }

    /// Spec tests of whitespace around inheritance tags the engine draws otherwise, as
    /// swift-mustache (which drew the default theme until Folio had its own engine) did: a line
    /// holding two tags, a parent's opening and closing or a block's, is not standalone (the
    /// default layout's `{{$main}}{{/main}}` line keeps its line break), and a block's
    /// content is not indented again where it goes. Whitespace alone; what each draws is right.
    static let drawnOtherwise: Set<String> = [
        "Inherit", "Override parent with newlines", "Standalone parent", "Standalone block", "Block reindentation",
        "Intrinsic indentation", "Nested block reindentation",
    ]

    func run(_ file: String) throws {
        struct Spec: Decodable { var tests: [SpecTest] }
        let data = try Data(contentsOf: Self.folder.appendingPathComponent("\(file).json"))
        let tests = try JSONDecoder().decode(Spec.self, from: data).tests
        XCTAssertFalse(tests.isEmpty)
        for test in tests where !Self.drawnOtherwise.contains(test.name) {
            var library = TemplateLibrary()
            for (name, text) in test.partials ?? [:] { try library.register(text, named: name) }
            try library.register(test.template, named: "test")
            XCTAssertEqual(try library.render(test.data.value, template: "test"), test.expected, "\(file): \(test.name)")
        }
    }

    func testInterpolation() throws { try run("interpolation") }
    func testSections() throws { try run("sections") }
    func testInvertedSections() throws { try run("inverted") }
    func testComments() throws { try run("comments") }
    func testDelimiters() throws { try run("delimiters") }
    func testPartials() throws { try run("partials") }
    func testInheritance() throws { try run("~inheritance") }

    func testWhatIsDrawnOtherwiseDiffersInWhitespaceAlone() throws {
        struct Spec: Decodable { var tests: [SpecTest] }
        let data = try Data(contentsOf: Self.folder.appendingPathComponent("~inheritance.json"))
        let tests = try JSONDecoder().decode(Spec.self, from: data).tests.filter { Self.drawnOtherwise.contains($0.name) }
        XCTAssertEqual(tests.count, Self.drawnOtherwise.count)
        for test in tests {
            var library = TemplateLibrary()
            for (name, text) in test.partials ?? [:] { try library.register(text, named: name) }
            try library.register(test.template, named: "test")
            let drawn = try library.render(test.data.value, template: "test") ?? ""
            XCTAssertEqual(drawn.filter { !$0.isWhitespace }, test.expected.filter { !$0.isWhitespace }, test.name)
        }
    }

    /// A name is found by what it says, as Swift compares text, whatever the lengths of the names
    /// passed on the way (`TemplateObject.child(named:ascii:)`): in another normal form, and an
    /// ASCII name written with the Kelvin sign for its K, which is the letter K canonically.
    func testANameIsFoundWhateverTheLengthsOfTheOthers() throws {
        var library = TemplateLibrary()
        try library.register("{{a}} {{ab}} {{b.a}} {{caf\u{E9}}} {{Key}} {{x}}", named: "test")
        let inner = TemplateValue.object(TemplateObject(names: ["abc", "a"], values: [.text("3"), .text("4")]))
        let values = TemplateObject(names: ["abc", "ab", "a", "b", "cafe\u{301}", "\u{212A}ey"],
                                    values: [.text("0"), .text("1"), .text("2"), inner, .text("5"), .text("6")])
        XCTAssertEqual(try library.render(.object(values), template: "test"), "2 1 4 5 6 ")
    }

    func testATemplateThatDoesNotParseSaysWhereAndWhy() {
        func error(_ text: String) -> TemplateLibrary.SyntaxError? {
            var library = TemplateLibrary()
            do {
                try library.register(text, named: "t")
                return nil
            } catch {
                return error
            }
        }
        XCTAssertEqual(error("<p>\n  {{#page}}\n  {{title}}\n"), TemplateLibrary.SyntaxError(line: 2, column: 3, reason: "'page' is never closed"))
        XCTAssertEqual(error("{{#a}}\n{{/b}}")?.reason, "'{{/b}}' closes 'a', opened at line 1")
        XCTAssertEqual(error("x\n\n   {{title"), TemplateLibrary.SyntaxError(line: 3, column: 4, reason: "a tag is not closed"))
        XCTAssertEqual(error("{{/a}}")?.reason, "'{{/a}}' closes nothing")
        XCTAssertEqual(error("{{=<% %>}}")?.reason, "a delimiter tag must end with '='")
        XCTAssertNil(error("{{! a comment }}{{uppercased(title)}}"), "a transform is a name no value holds")
    }

    func testAThemeTemplateThatDoesNotParseIsNamedWithItsLine() throws {
        let site = FileManager.default.temporaryDirectory.appendingPathComponent("theme-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: site) }
        try Data("{{<layout}}\n{{$main}}\n{{#page.rows}}\n{{/main}}\n{{/layout}}\n".utf8).write(to: site.appendingPathComponent("list.mustache"))
        XCTAssertThrowsError(try Theme.load(defaultFolder: TestSite.theme, siteFolder: site)) { error in
            let folio = error as? FolioError
            XCTAssertEqual(folio?.path, site.appendingPathComponent("list.mustache").path)
            XCTAssertEqual(folio?.reason, "line 4, column 1: '{{/main}}' closes 'page.rows', opened at line 3")
        }
    }
}
