import CLCMS
import Foundation

/// A conversion of pixels from one colour space to another through Little CMS 2: the only code
/// that calls lcms. It owns its cmsHTRANSFORM and deletes it in deinit; the profiles it was made
/// from are closed as soon as it exists. One per decode: making one is cheap for the
/// matrix-and-curve profiles of photos, and a transform is then applied to a whole image in one
/// call.
final class ColourTransform {
    /// How the pixels handed to `apply` are laid out: always one 32-bit word each, so a
    /// transform works in place on a PixelBuffer or on TurboJPEG's CMYK output.
    enum Layout {
        /// PixelBuffer's 0x??RRGGBB words.
        case xrgb
        /// Grey decoded into PixelBuffer words (the value in all three colour bytes).
        case greyInXRGB
        /// Four bytes C, M, Y, K, inverted as Photoshop writes them (255 is no ink).
        case invertedCMYK
    }

    /// The space a profile describes, as far as Folio cares.
    enum Space {
        case rgb, grey, cmyk
    }

    private let handle: cmsHTRANSFORM
    /// What it takes: a CMYK decode must be given a CMYK transform, and nothing else must.
    let layout: Layout

    /// From the space `source` (an ICC profile's bytes) describes to the one `target` does
    /// (sRGB when nil), perceptual with black-point compensation: what photographers' tools do
    /// when they export for the web. The result is PixelBuffer words. Nil when lcms cannot read
    /// `source` or cannot convert from it.
    init?(from source: Data, layout: Layout, to target: Data? = nil) {
        guard let input = Self.open(source) else { return nil }
        defer { cmsCloseProfile(input) }
        guard let output = target.flatMap(Self.open) ?? cmsCreate_sRGBProfile() else { return nil }
        defer { cmsCloseProfile(output) }
        let format: cmsUInt32Number
        switch layout {
        case .xrgb: format = folio_lcms_xrgb_native()
        case .greyInXRGB: format = folio_lcms_grey_in_xrgb()
        case .invertedCMYK: format = folio_lcms_cmyk_inverted()
        }
        guard let handle = cmsCreateTransform(
            input, format, output, folio_lcms_xrgb_native(), cmsUInt32Number(INTENT_PERCEPTUAL),
            folio_lcms_flag_black_point_compensation())
        else { return nil }
        self.handle = handle
        self.layout = layout
    }

    deinit {
        cmsDeleteTransform(handle)
    }

    /// Converts `count` words in place.
    package func apply(_ pixels: UnsafeMutableRawPointer, count: Int) {
        apply(from: UnsafeRawPointer(pixels), to: pixels, count: count)
    }

    /// Converts `count` words of `source` into `target` (which may be the same memory).
    package func apply(from source: UnsafeRawPointer, to target: UnsafeMutableRawPointer, count: Int) {
        // lcms counts pixels in 32 bits; a photo under any pixel limit fits, but chunks cost nothing.
        let chunk = 1 << 24
        for start in stride(from: 0, to: count, by: chunk) {
            cmsDoTransform(handle, source + start * 4, target + start * 4, cmsUInt32Number(min(chunk, count - start)))
        }
    }

    // MARK: Profiles

    /// What a profile's bytes describe, and whether that is sRGB in all but name; nil when lcms
    /// cannot read it as a profile of an image's colours. sRGB is decided by what the profile
    /// does, not by its name: 216 colours through it to lcms's own sRGB must land within two levels
    /// of 255 of where they started, which every sRGB profile cameras and editors embed passes
    /// (IEC 61966-2.1 v2 and v4, HP's, compact ones, colord's), and Adobe RGB or Display P3 do not.
    static func describe(_ profile: Data) -> (space: Space, isSRGB: Bool)? {
        guard let opened = open(profile) else { return nil }
        defer { cmsCloseProfile(opened) }
        let space: Space
        switch cmsGetColorSpace(opened) {
        case cmsSigRgbData: space = .rgb
        case cmsSigGrayData: space = .grey
        case cmsSigCmykData: space = .cmyk
        default: return nil
        }
        switch cmsGetDeviceClass(opened) {
        case cmsSigInputClass, cmsSigDisplayClass, cmsSigOutputClass, cmsSigColorSpaceClass: break
        default: return nil
        }
        guard space == .rgb else { return (space, false) }
        guard let sRGB = cmsCreate_sRGBProfile() else { return nil }
        defer { cmsCloseProfile(sRGB) }
        guard let transform = cmsCreateTransform(
            opened, folio_lcms_rgb_double(), sRGB, folio_lcms_rgb_double(),
            cmsUInt32Number(INTENT_RELATIVE_COLORIMETRIC), cmsUInt32Number(cmsFLAGS_NOOPTIMIZE))
        else { return nil }
        defer { cmsDeleteTransform(transform) }
        let steps = [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]
        var samples: [Double] = []
        for red in steps { for green in steps { for blue in steps { samples += [red, green, blue] } } }
        var converted = [Double](repeating: 0, count: samples.count)
        cmsDoTransform(transform, samples, &converted, cmsUInt32Number(samples.count / 3))
        let worst = zip(samples, converted).map { abs($0 - $1) }.max() ?? 1
        return (space, worst <= 2.0 / 255)
    }

    /// Display P3 (DCI-P3 primaries, D65 white, the sRGB curve), as Apple's devices tag photos:
    /// built here, about half a kilobyte, for `colour: "keep"` renditions of spaces too large to
    /// embed or that a browser cannot show (CMYK), and for tests and the benchmark's corpus.
    static let displayP3Profile: Data = makeRGBProfile(
        name: "Display P3 (Folio)",
        red: (0.680, 0.320), green: (0.265, 0.690), blue: (0.150, 0.060),
        curve: (type: 4, parameters: [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045]))

    /// Adobe RGB (1998) by its published primaries, D65 white and gamma 563/256: the profile of
    /// a camera's Adobe RGB JPEG that says so only in its EXIF.
    static let adobeRGBProfile: Data = makeRGBProfile(
        name: "Adobe RGB (1998) compatible (Folio)",
        red: (0.640, 0.330), green: (0.210, 0.710), blue: (0.150, 0.060),
        curve: (type: 1, parameters: [563.0 / 256]))

    private static func makeRGBProfile(
        name: String, red: (Double, Double), green: (Double, Double), blue: (Double, Double),
        curve: (type: Int32, parameters: [Double])
    ) -> Data {
        var white = cmsCIExyY(x: 0.3127, y: 0.3290, Y: 1)
        var primaries = cmsCIExyYTRIPLE(
            Red: cmsCIExyY(x: red.0, y: red.1, Y: 1), Green: cmsCIExyY(x: green.0, y: green.1, Y: 1),
            Blue: cmsCIExyY(x: blue.0, y: blue.1, Y: 1))
        guard let tone = cmsBuildParametricToneCurve(nil, curve.type, curve.parameters) else { return Data() }
        defer { cmsFreeToneCurve(tone) }
        var curves: [OpaquePointer?] = [tone, tone, tone]
        guard let profile = cmsCreateRGBProfile(&white, &primaries, &curves) else { return Data() }
        defer { cmsCloseProfile(profile) }
        if let description = cmsMLUalloc(nil, 1) {
            cmsMLUsetASCII(description, "en", "US", name)
            cmsWriteTag(profile, cmsSigProfileDescriptionTag, UnsafeRawPointer(description))
            cmsMLUfree(description)
        }
        cmsMD5computeID(profile)
        var size: cmsUInt32Number = 0
        guard cmsSaveProfileToMem(profile, nil, &size) != 0, size > 0 else { return Data() }
        var bytes = Data(count: Int(size))
        let saved = bytes.withUnsafeMutableBytes { cmsSaveProfileToMem(profile, $0.baseAddress, &size) }
        return saved != 0 ? bytes.prefix(Int(size)) : Data()
    }

    private static func open(_ profile: Data) -> cmsHPROFILE? {
        guard !profile.isEmpty, profile.count <= Int(UInt32.max) else { return nil }
        return profile.withUnsafeBytes { cmsOpenProfileFromMem($0.baseAddress, cmsUInt32Number($0.count)) }
    }
}
