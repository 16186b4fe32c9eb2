// swift-tools-version:6.0
import PackageDescription

// libFuzzer over Folio's readers, built apart from the main package because it needs the
// sanitizers' flags. See scripts/fuzz.sh.
let package = Package(
    name: "FolioFuzz",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "Folio", path: "..")],
    targets: [
        .executableTarget(
            name: "folio-fuzz",
            dependencies: [.product(name: "FolioTestSupport", package: "Folio")]
        ),
    ]
)
