import FolioCore
import Foundation

/// How Google Takeout names the JSON it writes beside each photo, read backwards: which file of
/// its folder a sidecar's name stands for. Takeout has written, over the years and in one export:
///
/// - `IMG_1.jpg.json`, `IMG_1.json`, `IMG_1.jpg.supplemental-metadata.json`;
/// - the last cut short when the name would pass 46–51 characters: `IMG_1.jpg.supplemental-metad.json`,
///   `IMG_1.jpg.suppl.json`, `IMG_1.jpg..json`, and, for long names, into the photo's own name;
/// - for the second file of a name, `IMG_1(1).jpg` beside `IMG_1.jpg(1).json`;
/// - an edited copy, `IMG_1-edited.jpg` (in the owner's language: `-bearbeitet`, `-modifié`, …),
///   which has no JSON of its own and shares the original's.
enum TakeoutNames {
    /// What a sidecar's name (its file name, `….json`) says of the photo it describes.
    struct Described: Equatable {
        /// The photo's file name, when the sidecar gives it whole: "IMG_1(1).jpg".
        var name: String
        /// Whether `name` may be only the start of the photo's name, or its name without the
        /// extension: Takeout cut it short, or wrote `IMG_1.json`.
        var mayBeCut: Bool
    }

    /// What `sidecar` (a file name ending in `.json`, any case) says of its photo.
    static func described(by sidecar: String) -> Described {
        var name = String(sidecar.dropLast(".json".count))
        // "IMG_1.jpg(1)": the second IMG_1.jpg of the folder, which Takeout named "IMG_1(1).jpg".
        var copy: Substring?
        if name.hasSuffix(")"), let open = name.lastIndex(of: "("),
           name[name.index(after: open)..<name.index(before: name.endIndex)].allSatisfy(\.isASCIIDigit),
           name.distance(from: open, to: name.endIndex) > 2 {
            copy = name[open...]
            name = String(name[..<open])
        }
        // ".supplemental-metadata", or as much of it as Takeout kept (down to the dot alone).
        if let dot = name.lastIndex(of: "."), "supplemental-metadata".hasPrefix(name[name.index(after: dot)...].lowercased()) {
            name = String(name[..<dot])
        }
        if let copy {
            let dot = name.lastIndex(of: ".") ?? name.endIndex
            name.insert(contentsOf: copy, at: dot)
        }
        return Described(name: name, mayBeCut: sidecar.count >= shortestCutName || !hasExtension(name))
    }

    /// Takeout cuts names at 46 characters or more (the limit has moved between exports); a
    /// shorter sidecar name is whole.
    static let shortestCutName = 46

    /// What an edited copy's name ends with before its extension, in the languages Google Photos
    /// writes it in.
    static let editedSuffixes = [
        "-edited", "-bearbeitet", "-modifié", "-modificato", "-editado", "-editada", "-bewerkt", "-edytowane",
        "-upraveno", "-upravené", "-redigeret", "-redigerad", "-redigert", "-muokattu", "-szerkesztett",
        "-editat", "-düzenlendi", "-編集済み", "-已编辑", "-已編輯", "-편집됨", "-отредактировано",
    ].map { $0.precomposedStringWithCanonicalMapping }

    /// The original's name of an edited copy ("IMG_1-edited.jpg" → "IMG_1.jpg"); nil for a file
    /// that is no edited copy.
    static func original(ofEdited name: String) -> String? {
        let dot = name.lastIndex(of: ".") ?? name.endIndex
        let stem = name[..<dot].precomposedStringWithCanonicalMapping
        guard let suffix = editedSuffixes.first(where: { stem.lowercased().hasSuffix($0) && stem.count > $0.count }) else { return nil }
        return String(stem.dropLast(suffix.count)) + name[dot...]
    }

    /// Whether a folder is one of Takeout's years (`Photos from 2023`, in the languages Google
    /// writes it in), where every photo of the account is, albums' too.
    static func isYearFolder(_ name: String) -> Bool {
        let words = name.split(separator: " ")
        guard let year = words.last.flatMap({ Int($0) }), (1800...2200).contains(year), words.count > 1 else { return false }
        return yearFolderPrefixes.contains(words.dropLast().joined(separator: " ").lowercased().precomposedStringWithCanonicalMapping)
    }

    static let yearFolderPrefixes: Set<String> = [
        "photos from", "fotos von", "photos de", "fotos de", "foto dal", "foto del", "foto's uit", "foto's van",
        "zdjęcia z", "fotky z", "fotos från", "fotos fra", "valokuvat vuodelta", "фото за",
    ]

    /// Whether a folder is the `Google Photos` of a Takeout export, above its years and albums.
    static func isPhotosFolder(_ name: String) -> Bool {
        ["google photos", "google fotos", "google foto", "google zdjęcia"].contains(name.lowercased())
    }

    /// Whether a folder is one Takeout's archives put around the export: `Takeout`, or a part
    /// extracted to a folder of its own name (`takeout-20240509T051501Z-001`).
    static func isTakeoutFolder(_ name: String) -> Bool {
        let lower = name.lowercased()
        return lower == "takeout" || lower.hasPrefix("takeout-") || isPhotosFolder(name)
    }

    /// Whether a name ends in an extension of a photo or video ("IMG_1.jpg", not "IMG_1").
    static func hasExtension(_ name: String) -> Bool {
        ContentPath.isMedia(name)
    }
}

private extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
