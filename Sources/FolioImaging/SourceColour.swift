import FolioCore
/// What a photo's pixel values mean, as its file says: read once by the import (kept in the
/// model with the photo), so a build knows which renditions colour management touches without
/// reading the file; the profile's bytes themselves are read again only by the decode.
public enum SourceColour: String, Sendable, Hashable, CaseIterable {
    /// sRGB: untagged RGB or grey (what browsers assume), or tagged with an sRGB profile. Its
    /// pixels are published as decoded, with no extra pass.
    case sRGB = "srgb"
    /// RGB with an ICC profile of another space: Adobe RGB, Display P3, ProPhoto...
    case rgbProfile = "rgb-icc"
    /// Grey with an ICC profile (a gamma or L* curve other than sRGB's).
    case greyProfile = "grey-icc"
    /// No profile, but EXIF says Adobe RGB (ColorSpace uncalibrated, interoperability "R03"), as
    /// cameras set to Adobe RGB write.
    case adobeRGB = "adobe-rgb"
    /// CMYK without a profile: converted by the inks alone, as browsers do.
    case cmyk = "cmyk"
    /// CMYK with its ICC profile.
    case cmykProfile = "cmyk-icc"

    /// The model's text for it; anything unknown (an older model) is sRGB, as it was treated then.
    public init(modelText: String) {
        self = SourceColour(rawValue: modelText) ?? .sRGB
    }

    /// What renditions made under `setting` add to their spec: nothing when the pixels come out
    /// as they always did (sRGB, and CMYK without a profile), so renditions named before colour
    /// management keep their names; else the setting, so switching it remakes exactly these.
    public func renditionTag(_ setting: ColourSetting) -> String {
        switch self {
        case .sRGB, .cmyk: return ""
        // Grey has no gamut to keep: sRGB either way.
        case .greyProfile: return " colour:srgb"
        case .rgbProfile, .adobeRGB, .cmykProfile: return setting == .keep ? " colour:keep" : " colour:srgb"
        }
    }
}
