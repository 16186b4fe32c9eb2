import Foundation

/// Which of a language's plural forms a count takes, by CLDR's rules: English says "1 photo" and
/// "2 photos"; Polish "1 zdjęcie", "2 zdjęcia", "5 zdjęć"; Arabic has six forms, Japanese one.
/// Foundation on Linux has no API that gives a count's category (ICU's plural rules are inside it,
/// behind no public call), so each catalogue carries its language's rules as CLDR writes them
/// (`@plural few = v = 0 and i % 10 = 2..4 and i % 100 != 12..14`), and this reads them.
///
/// Counts are whole numbers here, so of CLDR's operands `n` and `i` are the count, and `v`, `w`,
/// `f`, `t`, `e` and `c` are 0. The browser's `Intl.PluralRules` chooses for the theme's scripts;
/// a browser test holds the two to each other on every shipped language.
public struct PluralRules: Sendable, Equatable {
    /// CLDR's categories, in CLDR's order.
    public enum Category: String, Sendable, CaseIterable, Comparable {
        case zero, one, two, few, many, other

        public static func < (a: Category, b: Category) -> Bool {
            allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
        }
    }

    /// A rule that does not read, and why.
    public struct SyntaxError: Error, Sendable, Equatable {
        public var reason: String
    }

    /// The categories other than `other`, each with its condition, in the order they are tried.
    private(set) var rules: [(category: Category, condition: Condition)] = []
    /// The integers CLDR lists as samples of each category (`@integer 2~4, 22~24, …`), for tests.
    public private(set) var samples: [Category: [Int]] = [:]

    public init() {}

    public static func == (a: PluralRules, b: PluralRules) -> Bool {
        a.rules.map(\.category) == b.rules.map(\.category) && a.rules.map(\.condition) == b.rules.map(\.condition)
            && a.samples == b.samples
    }

    /// The categories the language has: those with a rule, and `other`.
    public var categories: [Category] { (rules.map(\.category) + [.other]).sorted() }

    /// The category of `count`: the first whose condition holds, else `other`.
    public func category(_ count: Int) -> Category {
        rules.first { $0.condition.holds(for: count.magnitude) }?.category ?? .other
    }

    /// Adds `category`'s rule, as CLDR writes it: a condition (none for `other`), then samples
    /// after `@integer` (and `@decimal`, which counts never need).
    public mutating func add(_ category: Category, _ text: String) throws(SyntaxError) {
        var condition = Substring(text)
        var integers: Substring = ""
        if let at = text.range(of: "@") {
            condition = text[..<at.lowerBound]
            let tail = text[at.lowerBound...]
            if let integer = tail.range(of: "@integer") {
                integers = tail[integer.upperBound...]
                if let decimal = integers.range(of: "@decimal") { integers = integers[..<decimal.lowerBound] }
            }
        }
        samples[category] = try Self.samples(integers)
        let trimmed = condition.trimmingCharacters(in: .whitespaces)
        if category == .other {
            guard trimmed.isEmpty else { throw SyntaxError(reason: "'other' takes no condition: it is every count the others leave") }
            return
        }
        guard !trimmed.isEmpty else { throw SyntaxError(reason: "'\(category.rawValue)' needs a condition") }
        guard !rules.contains(where: { $0.category == category }) else {
            throw SyntaxError(reason: "'\(category.rawValue)' has two rules")
        }
        rules.append((category, try Condition(trimmed)))
    }

    /// "0, 2~16, 100, 1000, …" as the integers it lists (a range's every one).
    private static func samples(_ text: Substring) throws(SyntaxError) -> [Int] {
        var found: [Int] = []
        for part in text.split(separator: ",") {
            let item = part.trimmingCharacters(in: .whitespaces)
            if item.isEmpty || item == "…" || item == "..." { continue }
            let bounds = item.split(separator: "~").map { Int(String($0).replacingOccurrences(of: "c", with: "e")) }
            guard let first = bounds.first ?? nil, bounds.count <= 2, let last = bounds.last ?? nil, first <= last,
                  last - first <= 1000 else {
                throw SyntaxError(reason: "'\(item)' is no sample: write whole numbers or ranges like 2~4")
            }
            found += Array(first...last)
        }
        return found
    }

    /// `and` binds tighter than `or`, as in CLDR: a list of alternatives, each a list of relations.
    struct Condition: Sendable, Equatable {
        var alternatives: [[Relation]]

        init(_ text: String) throws(SyntaxError) {
            var alternatives: [[Relation]] = []
            for alternative in text.components(separatedBy: " or ") {
                var relations: [Relation] = []
                for relation in alternative.components(separatedBy: " and ") {
                    relations.append(try Relation(relation.trimmingCharacters(in: .whitespaces)))
                }
                alternatives.append(relations)
            }
            self.alternatives = alternatives
        }

        func holds(for count: UInt) -> Bool {
            alternatives.contains { $0.allSatisfy { $0.holds(for: count) } }
        }
    }

    /// `operand [% modulus] (= | !=) ranges`, e.g. `i % 100 != 12..14`.
    struct Relation: Sendable, Equatable {
        var operand: Character
        var modulus: UInt?
        var negated: Bool
        var ranges: [ClosedRange<UInt>]

        init(_ text: String) throws(SyntaxError) {
            let negated = text.contains("!=")
            let sides = text.components(separatedBy: negated ? "!=" : "=")
            guard sides.count == 2 else { throw SyntaxError(reason: "'\(text)' is no relation: write like 'i % 10 = 2..4'") }
            let left = sides[0].split(separator: "%").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let name = left.first, name.count == 1, let operand = name.first, "nivwftec".contains(operand), left.count <= 2 else {
                throw SyntaxError(reason: "'\(sides[0].trimmingCharacters(in: .whitespaces))' is no operand: CLDR's are n, i, v, w, f, t, e and c")
            }
            var modulus: UInt?
            if left.count == 2 {
                guard let value = UInt(left[1]), value > 0 else { throw SyntaxError(reason: "'\(left[1])' is no modulus") }
                modulus = value
            }
            var ranges: [ClosedRange<UInt>] = []
            for item in sides[1].split(separator: ",") {
                let bounds = item.trimmingCharacters(in: .whitespaces).components(separatedBy: "..").map { UInt($0) }
                guard let low = bounds.first ?? nil, let high = bounds.last ?? nil, bounds.count <= 2, low <= high else {
                    throw SyntaxError(reason: "'\(item.trimmingCharacters(in: .whitespaces))' is no value or range: write like 2..4")
                }
                ranges.append(low...high)
            }
            guard !ranges.isEmpty else { throw SyntaxError(reason: "'\(text)' compares with nothing") }
            self.operand = operand
            self.modulus = modulus
            self.negated = negated
            self.ranges = ranges
        }

        func holds(for count: UInt) -> Bool {
            // A whole number has no fraction and no exponent: only n and i are the count.
            var value: UInt = operand == "n" || operand == "i" ? count : 0
            if let modulus { value %= modulus }
            return ranges.contains { $0.contains(value) } != negated
        }
    }
}
