// swift-tools-version:6.0
import PackageDescription

// Which build this is, for `folio --version`: scripts/package-deb.sh sets FOLIO_BUILD_IDENTITY
// ("git abc1234, built 2026-11-23"); a plain `swift build` says "development build".
let buildIdentity: [CSetting] = Context.environment["FOLIO_BUILD_IDENTITY"].map { identity in
    let literal = identity.map { $0 == "\\" || $0 == "\"" ? "\\\($0)" : String($0) }.joined()
    return [.define("FOLIO_BUILD_IDENTITY", to: "\"\(literal)\"")]
} ?? []

/// Pixel work (resampling, blending, comparing pictures) is Folio's own Swift: unoptimised, as a debug
/// build leaves it, it made the tests and the debug `folio` several times slower. The modules that
/// do it are optimised in debug builds too; FOLIO_DEBUG_UNOPTIMISED=1 leaves them unoptimised, for
/// stepping through them in a debugger.
let optimisedInDebug: [SwiftSetting] = Context.environment["FOLIO_DEBUG_UNOPTIMISED"] == "1"
    ? [] : [.unsafeFlags(["-O"], .when(configuration: .debug))]

/// The modules whose tests read files of their own from `Tests/<module>Tests/Fixtures`.
let withFixtures: Set = ["FolioModel", "FolioSite", "FolioVideo"]

let package = Package(
    name: "Folio",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "folio", targets: ["folio"]),
        .executable(name: "folio-bench", targets: ["folio-bench"]),
        .library(name: "Folio", targets: [
            "FolioCore", "FolioImaging", "FolioVideo", "FolioModel", "FolioNetwork", "FolioPlaces", "FolioMetadata", "FolioMedia",
            "FolioFlickr", "FolioContent", "FolioSite", "FolioChanges", "FolioPipeline", "FolioPreview", "FolioPublish",
        ]),
        // For the fuzzing package in Fuzz/, which replays inputs through it.
        .library(name: "FolioTestSupport", targets: ["FolioTestSupport"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.1"),
    ],
    targets: [
        // No pkgConfig for libgd: its .pc file adds a -D flag that SwiftPM refuses; the headers are in /usr/include.
        .systemLibrary(name: "CGD", providers: [.apt(["libgd-dev"])]),
        .systemLibrary(name: "CTurboJPEG", pkgConfig: "libturbojpeg", providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(name: "CExif", pkgConfig: "libexif", providers: [.apt(["libexif-dev"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CGeonames", providers: [.apt(["libgeonames-dev"])]),
        // libgd decodes TIFF through libtiff; Folio calls libtiff only to keep it off stderr.
        .systemLibrary(name: "CTIFF", pkgConfig: "libtiff-4", providers: [.apt(["libtiff-dev"])]),
        .systemLibrary(name: "CLCMS", pkgConfig: "lcms2", providers: [.apt(["liblcms2-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // AES-GCM and PBKDF2 for password-protected albums, as the browser's WebCrypto undoes them.
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        // sigal's Markdown descriptions, rendered (and raw HTML left out) by the CommonMark reference library.
        .systemLibrary(name: "CCmark", pkgConfig: "libcmark", providers: [.apt(["libcmark-dev"])]),
        // HEIC through libheif itself: libgd 2.3.3's reader ignores the stride of libheif's rows.
        .systemLibrary(name: "CHeif", pkgConfig: "libheif", providers: [.apt(["libheif-dev"])]),
        // Cameras' RAW files: LibRaw reads their facts and previews and develops them (libraw_r, thread-safe).
        .systemLibrary(name: "CRaw", providers: [.apt(["libraw-dev"])]),
        // Google Takeout's .zip and .tgz parts, unpacked into content/ (`folio import takeout`).
        .systemLibrary(name: "CArchive", pkgConfig: "libarchive", providers: [.apt(["libarchive-dev"])]),
        // An animated WebP's first frame: libgd reads WebP through libwebp's simple decoder, stills only.
        .systemLibrary(name: "CWebP", pkgConfig: "libwebpdemux", providers: [.apt(["libwebp-dev"])]),
        // Videos: FFmpeg's libraries read containers, decode poster frames and make the published MP4.
        // Not linked: opened when the first video is met (folio_ffmpeg.c), as they bring 78 libraries
        // of their own to every start. Their headers come from libavformat-dev, libavcodec-dev,
        // libswscale-dev, libswresample-dev and libavutil-dev.
        .target(name: "CFFmpeg"),
        // libjpeg's encoder API needs setjmp for its errors, which Swift cannot call: a C file does.
        .target(name: "CJPEG", linkerSettings: [.linkedLibrary("jpeg")]),
        // The one system call Swift's Glibc does not offer: renameat2, to swap public/ in one step.
        .target(name: "CSystem"),
        .target(name: "CBuildIdentity", cSettings: buildIdentity),
        // The library, a module for each concern, each using only the modules below it: the
        // compiler holds the layers apart. docs/architecture.md draws them.
        .target(name: "FolioCore", dependencies: ["CSystem", "CCmark", "CCrypto"]),
        .target(
            name: "FolioImaging",
            dependencies: ["FolioCore", "CGD", "CTurboJPEG", "CJPEG", "CExif", "CHeif", "CRaw", "CWebP", "CLCMS", "CTIFF", "CZlib"],
            swiftSettings: optimisedInDebug
        ),
        .target(name: "FolioVideo", dependencies: ["FolioCore", "FolioImaging", "CFFmpeg"]),
        .target(name: "FolioModel", dependencies: [
            "FolioCore", "FolioImaging", "CSystem", .product(name: "GRDB", package: "GRDB.swift"),
        ]),
        .target(name: "FolioNetwork", dependencies: ["FolioCore", "CCurl"]),
        .target(name: "FolioPlaces", dependencies: ["FolioCore", "FolioImaging", "CGeonames"]),
        .target(name: "FolioMetadata", dependencies: ["FolioCore", "FolioImaging"]),
        .target(name: "FolioMedia", dependencies: ["FolioCore", "FolioImaging", "FolioModel"]),
        .target(name: "FolioFlickr", dependencies: ["FolioCore", "FolioNetwork", "FolioModel"]),
        .target(name: "FolioContent", dependencies: ["FolioCore", "FolioModel", "FolioImaging", "CArchive"]),
        .target(name: "FolioSite", dependencies: ["FolioCore", "FolioModel", "FolioMedia"]),
        // What a build keeps for the next, to tell what changed since: its mark, the page manifest, the ledgers.
        .target(name: "FolioChanges", dependencies: ["FolioCore", "FolioModel", "FolioMedia", "FolioContent", "FolioSite"]),
        // The build: its named steps, from content/ to public/.
        .target(name: "FolioPipeline", dependencies: [
            "FolioCore", "FolioImaging", "FolioModel", "FolioNetwork", "FolioMedia", "FolioContent", "FolioSite", "FolioChanges",
            "FolioPlaces", "FolioMetadata", "FolioVideo", "CSystem", .product(name: "GRDB", package: "GRDB.swift"),
        ]),
        .target(name: "FolioPreview", dependencies: [
            "FolioCore", "FolioPipeline",
            .product(name: "FlyingFox", package: "FlyingFox"),
            .product(name: "FlyingSocks", package: "FlyingFox"),
        ]),
        .target(name: "FolioPublish", dependencies: ["FolioCore", "FolioNetwork", "FolioSite"]),
        .executableTarget(
            name: "folio",
            dependencies: [
                "FolioCore", "FolioModel", "FolioNetwork", "FolioFlickr", "FolioPipeline", "FolioPreview", "FolioPublish",
                "CBuildIdentity", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // What tests and the benchmark make photos and sites with: sample photos, drawn pictures,
        // EXIF blocks (libexif writing, which Folio itself never does), a site in a temporary
        // folder, a disk that fails on demand, web servers for network tests.
        .target(
            name: "FolioTestSupport",
            dependencies: [
                "FolioCore", "FolioImaging", "FolioVideo", "FolioModel", "FolioNetwork", "FolioMetadata", "FolioContent",
                "FolioFlickr", "FolioPipeline", "FolioPreview", "CExif",
                .product(name: "FlyingFox", package: "FlyingFox"),
                .product(name: "FlyingSocks", package: "FlyingFox"),
            ],
            swiftSettings: optimisedInDebug
        ),
        .executableTarget(
            name: "folio-bench",
            dependencies: [
                "FolioCore", "FolioImaging", "FolioModel", "FolioPipeline", "FolioTestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
    ] + [
        ("FolioCore", []), ("FolioImaging", ["CGD", "CTurboJPEG", "CExif"]), ("FolioVideo", []), ("FolioModel", []),
        ("FolioNetwork", []), ("FolioPlaces", []), ("FolioMetadata", []), ("FolioMedia", []), ("FolioFlickr", []),
        ("FolioContent", []), ("FolioSite", []), ("FolioChanges", []), ("FolioPipeline", []), ("FolioPreview", []), ("FolioPublish", []),
    ].map { module, libraries in
        // A module's tests, in a folder of their own; fixtures (old models, golden pages) read in place.
        .testTarget(
            name: "\(module)Tests",
            dependencies: [.target(name: module), "FolioTestSupport"] + libraries.map { .target(name: $0) },
            exclude: withFixtures.contains(module) ? ["Fixtures"] : []
        )
    } + [
        .testTarget(name: "FolioCLITests", dependencies: ["FolioCore", "FolioTestSupport", "folio"]),
    ],
    swiftLanguageModes: [.v6]
)
