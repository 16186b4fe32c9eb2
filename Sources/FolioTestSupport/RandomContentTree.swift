import FolioCore
import Foundation

/// Content folders as people make them, named anyhow: names of one character and of 255 bytes,
/// from every class of Unicode a Linux file system takes (controls, combining marks that start a
/// name, right-to-left text, emoji sequences, Hangul that decomposes, private use), nested up to
/// eight deep, with names that differ only in case or in Unicode normal form side by side, a
/// file and a folder of one name in two cases, hidden names, and a catalog naming some photos
/// from another folder. Made from a seed, so a failing tree can be made again.
public struct RandomContentTree: Sendable {
    /// Photos a build must publish, relative to content/.
    public var photos: [RelativePath] = []
    /// Photos under hidden names, which a build must leave out.
    public var hidden: [RelativePath] = []
    /// The catalog's place and its records (`path` as written there, `name`).
    public var catalog: (path: RelativePath, records: [[String: String]])?

    public init<Random: RandomNumberGenerator>(photos count: Int, using random: inout Random) {
        var folders: [RelativePath] = [.root]
        var taken = Set<RelativePath>()
        func add(_ path: RelativePath, to list: inout [RelativePath]) {
            guard taken.insert(path).inserted else { return }
            list.append(path)
        }
        while photos.count < count {
            let roll = Int.random(in: 0..<10, using: &random)
            let base = folders.randomElement(using: &random)!
            switch roll {
            case 0..<3 where base.components.count < 8:
                // A new folder, now and then beside its twin in another case or normal form.
                let name = Self.name(maxBytes: 255, using: &random)
                add(base.appending(name), to: &folders)
                if Bool.random(using: &random) {
                    for twin in Self.twins(of: name) { add(base.appending(twin), to: &folders) }
                }
            case 3:
                // A file and a folder of one name in two cases: "trip.jpg" beside a folder "Trip.JPG".
                let stem = Self.name(maxBytes: 120, using: &random)
                guard base.components.count < 8, stem.uppercased().utf8.count <= 250, stem.lowercased().utf8.count <= 250 else { continue }
                add(base.appending(stem.uppercased() + ".JPG"), to: &folders)
                add(base.appending(stem.lowercased() + ".jpg"), to: &photos)
            default:
                let stem = Self.name(maxBytes: 250, using: &random)
                let file = stem + [".jpg", ".JPG", ".jpeg", ".Jpg"].randomElement(using: &random)!
                add(base.appending(file), to: &photos)
                if roll == 9 {
                    for twin in Self.twins(of: stem) where twin.utf8.count <= 250 { add(base.appending(twin + ".jpg"), to: &photos) }
                }
            }
        }
        // Hidden names anywhere leave what is under them out.
        let somewhere = folders.randomElement(using: &random)!
        add(somewhere.appending(".hidden " + Self.name(maxBytes: 40, using: &random)).appending("a.jpg"), to: &hidden)
        add(somewhere.appending("." + Self.name(maxBytes: 40, using: &random) + ".jpg"), to: &hidden)
        // A catalog in one folder names photos anywhere, climbing with "..".
        let place = folders.randomElement(using: &random)!
        let named = photos.shuffled(using: &random).prefix(max(1, count / 4))
        catalog = (place.appending("catalog.plist"), named.enumerated().map { index, photo in
            ["path": Self.relative(photo, from: place), "name": "Catalogued \(index)"]
        })
    }

    /// `path` as a file in `folder` names it: "../../x/a.jpg".
    public static func relative(_ path: RelativePath, from folder: RelativePath) -> String {
        var common = 0
        while common < folder.components.count, common < path.components.count - 1,
              folder.components[common].utf8.elementsEqual(path.components[common].utf8) {
            common += 1
        }
        let up = Array(repeating: "..", count: folder.components.count - common)
        return (up + path.components[common...]).joined(separator: "/")
    }

    /// Writes the tree under `content`, each photo a small JPEG of its own colour.
    public func write(to content: URL, photo: (Int) throws -> Data) throws {
        for (index, path) in (photos + hidden).enumerated() {
            let url = URL(fileURLWithPath: content.path + "/" + path.text)
            try FileManager.default.createDirectory(atPath: content.path + "/" + path.folder, withIntermediateDirectories: true)
            try photo(index).write(to: url)
        }
        if let (path, records) = catalog {
            // Binary: XML cannot hold the control characters a name may have, and its parsers
            // turn a "\r" into a "\n".
            let data = try PropertyListSerialization.data(fromPropertyList: records, format: .binary, options: 0)
            try FileManager.default.createDirectory(atPath: content.path + "/" + path.folder, withIntermediateDirectories: true)
            try data.write(to: URL(fileURLWithPath: content.path + "/" + path.text))
        }
    }

    /// The same name in other cases and normal forms, where those are other bytes.
    public static func twins(of name: String) -> [String] {
        let forms = [name.uppercased(), name.lowercased(), name.decomposedStringWithCanonicalMapping, name.precomposedStringWithCanonicalMapping]
        var seen: [String] = [name]
        for form in forms where !form.isEmpty && form.utf8.count <= 255 && form.utf8.first != UInt8(ascii: ".") && !seen.contains(where: { $0.utf8.elementsEqual(form.utf8) }) {
            seen.append(form)
        }
        return Array(seen.dropFirst())
    }

    /// A name of one character (often), a few words, or up to `maxBytes` bytes; never empty, ".",
    /// "..", hidden, or holding "/" or NUL.
    public static func name<Random: RandomNumberGenerator>(maxBytes: Int, using random: inout Random) -> String {
        let length: Int
        switch Int.random(in: 0..<10, using: &random) {
        case 0..<4: length = 1
        case 4..<7: length = Int.random(in: 2...12, using: &random)
        case 7..<9: length = Int.random(in: 13...60, using: &random)
        default: length = 255
        }
        var name = ""
        while name.unicodeScalars.count < length {
            let scalar = scalar(using: &random)
            guard name.utf8.count + String(scalar).utf8.count <= maxBytes else { break }
            name.unicodeScalars.append(scalar)
        }
        if name.isEmpty || name == "." || name == ".." { name = "n" }
        if name.utf8.first == UInt8(ascii: ".") { name = "_" + name.dropFirst() }
        return name
    }

    /// One Unicode scalar from one of the classes a name can hold.
    static func scalar<Random: RandomNumberGenerator>(using random: inout Random) -> Unicode.Scalar {
        let ranges: [ClosedRange<UInt32>] = [
            0x41...0x5A, 0x61...0x7A, 0x30...0x39,             // ASCII letters and digits
            0x20...0x2E, 0x3A...0x40, 0x5B...0x60, 0x7B...0x7E, // ASCII punctuation and space, "/" left out
            0x01...0x1F, 0x7F...0x7F,                           // controls: tab, newline, escape…
            0xA0...0x24F,                                       // Latin-1 and Latin Extended
            0x300...0x36F,                                      // combining marks
            0x370...0x3FF, 0x400...0x4FF,                       // Greek, Cyrillic
            0x5D0...0x5EA, 0x627...0x64A,                       // Hebrew, Arabic
            0x200B...0x200F, 0x202A...0x202E, 0xFEFF...0xFEFF,  // zero-width and bidirectional controls
            0x4E00...0x9FFF, 0xAC00...0xD7A3, 0x3040...0x30FF,  // CJK, Hangul syllables, kana
            0xE000...0xF8FF, 0xFFF0...0xFFFF,                   // private use, specials and noncharacters
            0xFF01...0xFF5E,                                    // fullwidth forms (a fullwidth solidus, dots)
            0x1F300...0x1F64F, 0x1F1E6...0x1F1FF,               // emoji, regional indicators
            0x1D400...0x1D7FF, 0x20000...0x2A6DF,               // mathematical letters, CJK extension B
        ]
        let range = ranges.randomElement(using: &random)!
        let value = UInt32.random(in: range, using: &random)
        return Unicode.Scalar(value) ?? "x"
    }
}
