import Foundation

extension ImageProcessor {
    /// What a file's pixel values mean, from its embedded profile, else its EXIF, else sRGB, as
    /// browsers take untagged files. Read by the import once; a profile that cannot be used is
    /// a problem to report, and the photo is published as if it had none.
    static func sourceColour(of data: Data, header: ImageHeader, exif: ExifFields) -> (colour: SourceColour, problem: String?) {
        // LibRaw develops a RAW into sRGB, and its camera's preview is a camera's JPEG.
        guard header.format != .raw else { return (.sRGB, nil) }
        let untagged: SourceColour = header.channels == 4 ? .cmyk : .sRGB
        func broken(_ reason: String) -> (SourceColour, String?) {
            (untagged, "\(reason); its colours are taken as \(untagged == .cmyk ? "plain CMYK inks" : "sRGB")")
        }
        switch ICCProfileReader.read(data, format: header.format) {
        case .none:
            return (header.channels == 3 && exif.saysAdobeRGB ? .adobeRGB : untagged, nil)
        case .broken(let reason):
            return broken(reason)
        case .profile(let profile):
            guard let described = ColourTransform.describe(profile) else {
                return broken("its colour profile cannot be read (damaged, or not a profile of an image's colours)")
            }
            switch (described.space, header.channels) {
            case (.rgb, 3):
                return (described.isSRGB ? .sRGB : .rgbProfile, nil)
            case (.grey, 1):
                guard ColourTransform(from: profile, layout: .greyInXRGB) != nil else {
                    return broken("its grey colour profile cannot be used")
                }
                return (.greyProfile, nil)
            case (.cmyk, 4):
                guard ColourTransform(from: profile, layout: .invertedCMYK) != nil else {
                    return broken("its CMYK colour profile cannot be used")
                }
                return (.cmykProfile, nil)
            default:
                let kinds = [1: "grey", 3: "RGB", 4: "CMYK"]
                let space = described.space == .rgb ? "RGB" : described.space == .grey ? "grey" : "CMYK"
                return broken("its colour profile is for \(space), its pixels are \(kinds[header.channels] ?? "other")")
            }
        }
    }

    /// Profiles up to this size are embedded as they are in `keep` renditions; larger ones
    /// (LUT-based, tens of kilobytes) would weigh on every thumbnail and tile, so those photos
    /// are converted to the compact Display P3 instead.
    static let embeddedProfileLimit = 8 << 10

    /// How a photo's decoded pixels become published ones: the transform to run on them (none
    /// for sRGB, which costs nothing) and the profile every rendition then embeds (none: sRGB).
    /// The profile's bytes are read again here, where the file is in hand.
    /// Transparent photos are converted even under `keep`: their PNG renditions (from libgd)
    /// cannot carry a profile.
    func colourWork(for data: Data, metadata: ImageMetadata) -> (transform: ColourTransform?, profile: Data?) {
        let keep = colour == .keep && !metadata.transparent
        switch metadata.colour {
        case .sRGB, .cmyk:
            return (nil, nil)
        case .adobeRGB:
            return keep ? (nil, ColourTransform.adobeRGBProfile)
                : (ColourTransform(from: ColourTransform.adobeRGBProfile, layout: .xrgb), nil)
        case .rgbProfile, .greyProfile, .cmykProfile:
            // Changed since the import read it: the next import says what is wrong with it.
            guard case .profile(let profile) = ICCProfileReader.read(data, format: metadata.format) else { return (nil, nil) }
            let layout: ColourTransform.Layout = metadata.colour == .rgbProfile ? .xrgb
                : metadata.colour == .greyProfile ? .greyInXRGB : .invertedCMYK
            switch (keep, metadata.colour) {
            case (true, .rgbProfile) where profile.count <= Self.embeddedProfileLimit:
                return (nil, profile)
            case (true, .rgbProfile), (true, .cmykProfile):
                let p3 = ColourTransform.displayP3Profile
                return (ColourTransform(from: profile, layout: layout, to: p3), p3)
            default:
                return (ColourTransform(from: profile, layout: layout), nil)
            }
        }
    }

    /// The compact Display P3 profile `keep` renditions may carry; for tests and the benchmark's
    /// wide-gamut photos.
    public static var displayP3Profile: Data { ColourTransform.displayP3Profile }

    /// The Adobe RGB (1998) profile Folio assumes for files whose EXIF says Adobe RGB.
    public static var adobeRGBProfile: Data { ColourTransform.adobeRGBProfile }
}
