/// What a site does with photos whose colours are not sRGB (an Adobe RGB or Display P3 profile,
/// CMYK): the `colour` setting.
public enum ColourSetting: String, Sendable, Hashable, Codable, CaseIterable {
    /// Converted to sRGB, which every browser and screen shows as meant; the default.
    case convert
    /// Left in their own wider space, with its profile embedded in every rendition, for galleries
    /// aimed at wide-gamut screens.
    case keep
}
