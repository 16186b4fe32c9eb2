import Foundation

/// The checksum of every page a build wrote, kept in `public/.folio-pages`, so the next build
/// leaves a page that comes out the same untouched (same file, same mtime) instead of writing it.
struct PageManifest {
    static let fileName = ".folio-pages"
    var checksums: [String: String] = [:]

    static func read(from output: URL) -> PageManifest {
        var manifest = PageManifest()
        guard let text = try? String(contentsOf: output.appendingPathComponent(fileName), encoding: .utf8) else { return manifest }
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1)
            if parts.count == 2 { manifest.checksums[String(parts[1])] = String(parts[0]) }
        }
        return manifest
    }

    func encoded() -> Data {
        Data(checksums.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)\n" }.joined().utf8)
    }
}
