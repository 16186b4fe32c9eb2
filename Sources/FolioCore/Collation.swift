import Foundation

/// The order names are listed in: one locale's, whatever the machine's, so a site lists its
/// places, people and regions the same wherever it is built.
public enum Collation {
    /// CLDR's root collation, as English uses it.
    static let locale = Locale(identifier: "en")

    /// Whether `a` comes before `b`, case aside ("delft" beside "Delft").
    public static func precedes(_ a: String, _ b: String) -> Bool {
        a.compare(b, options: .caseInsensitive, range: nil, locale: locale) == .orderedAscending
    }

    /// Whether `a` comes before `b` as a file manager sorts names: numbers by their value
    /// ("IMG 9" before "IMG 10").
    public static func precedesAsFileName(_ a: String, _ b: String) -> Bool {
        a.compare(b, options: [.caseInsensitive, .numeric, .widthInsensitive, .forcedOrdering], range: nil, locale: locale)
            == .orderedAscending
    }
}
