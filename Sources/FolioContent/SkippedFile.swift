import FolioCore
import Foundation

/// A file under `content/` that is not a photo Folio reads. Never passed over in silence: the
/// build ends with one line saying how many of each kind it skipped. A video or RAW beside a
/// photo of the same name is that photo's companion, and said apart.
public struct SkippedFile: Sendable, Equatable, Codable {
    /// Relative to content/.
    public var path: String
    public var kind: ContentFileKind
    /// The photo this file accompanies (`IMG_1.MOV` beside `IMG_1.HEIC`), if any.
    public var companionOf: String?

    public init(path: String, kind: ContentFileKind, companionOf: String? = nil) {
        self.path = path
        self.kind = kind
        self.companionOf = companionOf
    }

    /// "skipped 3 files: 2 .mov (video), 1 .cr2 (RAW)"; nil when nothing was skipped.
    public static func skippedLine(_ files: [SkippedFile]) -> String? {
        let skipped = files.filter { $0.companionOf == nil }
        guard !skipped.isEmpty else { return nil }
        return "skipped \(Wording.count(skipped.count, "file")): \(counts(skipped))"
    }

    /// "2 companion files beside their photos, not imported: 1 .mov (video), 1 .cr2 (RAW)"; nil when none.
    public static func companionLine(_ files: [SkippedFile]) -> String? {
        let companions = files.filter { $0.companionOf != nil }
        guard !companions.isEmpty else { return nil }
        let beside = companions.count == 1 ? "beside its photo" : "beside their photos"
        return "\(Wording.count(companions.count, "companion file")) \(beside), not imported: \(counts(companions))"
    }

    /// Counts by extension, most first, then by name (files without one last): "2 .mov (video), 1 .cr2 (RAW)".
    private static func counts(_ files: [SkippedFile]) -> String {
        var byExtension: [String: (count: Int, kind: ContentFileKind)] = [:]
        for file in files {
            let fileExtension = RelativePath(file.path).lowercasedExtension
            byExtension[fileExtension, default: (0, file.kind)].count += 1
        }
        func order(_ name: String) -> String { name.isEmpty ? "\u{10FFFF}" : name }
        return byExtension.sorted { ($1.value.count, order($0.key)) < ($0.value.count, order($1.key)) }.map { entry in
            let name = entry.key.isEmpty ? "without an extension" : ".\(entry.key)"
            return "\(entry.value.count) \(name) (\(entry.value.kind.rawValue))"
        }.joined(separator: ", ")
    }
}
