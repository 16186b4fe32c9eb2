import Foundation

/// The order names are listed in: one locale's, whatever the machine's, so a site lists its
/// places, people and regions the same wherever it is built. A site's pages use its language's
/// (Polish puts "Łódź" after "Lublin"); what has no language of its own, English's.
public struct Collation: Sendable {
    public let locale: Locale

    public init(_ locale: Locale) {
        self.locale = locale
    }

    /// CLDR's root collation, as English uses it.
    public static let english = Collation(Locale(identifier: "en"))

    /// Whether `a` comes before `b`, case aside ("delft" beside "Delft").
    public func precedes(_ a: String, _ b: String) -> Bool {
        a.compare(b, options: .caseInsensitive, range: nil, locale: locale) == .orderedAscending
    }

    /// Whether `a` comes before `b` as a file manager sorts names: numbers by their value
    /// ("IMG 9" before "IMG 10").
    public func precedesAsFileName(_ a: String, _ b: String) -> Bool {
        a.compare(b, options: [.caseInsensitive, .numeric, .widthInsensitive, .forcedOrdering], range: nil, locale: locale)
            == .orderedAscending
    }

    /// English's order (`english.precedes`).
    public static func precedes(_ a: String, _ b: String) -> Bool { english.precedes(a, b) }

    /// English's order of file names (`english.precedesAsFileName`).
    public static func precedesAsFileName(_ a: String, _ b: String) -> Bool { english.precedesAsFileName(a, b) }
}
