/// A path inside a folder Folio owns (`content/`, `public/`, the cache): names joined by "/".
/// Folio's own, rather than NSString's path functions, which on Linux trap on ordinary input
/// (`deletingLastPathComponent` of a one-character string) and read a path as Characters, where
/// a name that begins with a combining mark glues itself to the "/" before it. Here a path is
/// UTF-8 bytes, split at the byte "/", compared byte for byte ("Montréal" composed and
/// decomposed are two names on Linux, as they are two rows in SQLite).
public struct RelativePath: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The names, none empty and none ".".
    public let components: [String]

    /// `text` split at "/", empty and "." names dropped: "a//b/./c/" is "a/b/c". ".." is kept as
    /// written (`resolving` is what climbs); a leading "/" is dropped with the empty name before it.
    public init(_ text: String) {
        components = text.utf8.split(separator: Self.slash, omittingEmptySubsequences: true)
            .map { String(decoding: $0, as: UTF8.self) }
            .filter { $0 != "." }
    }

    public init<Names: Sequence>(components: Names) where Names.Element == String {
        self.components = components.filter { !$0.isEmpty && $0 != "." }
    }

    /// The top of the folder itself.
    public static let root = RelativePath(components: [])

    public var isRoot: Bool { components.isEmpty }

    /// The names joined by "/"; "" for the root.
    public var text: String { components.joined(separator: "/") }

    public var description: String { text }

    /// The last name: "b.jpg" of "a/b.jpg"; "" for the root.
    public var name: String { components.last ?? "" }

    /// The folder the path is in; nil at the top (a path of one name, or the root).
    public var parent: RelativePath? {
        components.count > 1 ? RelativePath(components: components.dropLast()) : nil
    }

    /// The folder the path is in as text, "" at the top.
    public var folder: String { parent?.text ?? "" }

    /// The name's extension, as written: "JPG" of "IMG_1.JPG". A name whose only dot starts it
    /// (".nomedia") or ends it ("notes.") has none.
    public var pathExtension: String {
        guard let dot = Self.extensionDot(name) else { return "" }
        return String(decoding: name.utf8[name.utf8.index(after: dot)...], as: UTF8.self)
    }

    /// The extension in lower case, as Folio compares it: "jpg" of "IMG_1.JPG".
    public var lowercasedExtension: String { pathExtension.lowercased() }

    /// What `RelativePath(text).lowercasedExtension` is, without splitting the path into names:
    /// asked of every file of a library, several times.
    public static func lowercasedExtension(of text: String) -> String {
        var text = text
        return text.withUTF8 { lowercasedExtension(ofBytes: $0) }
    }

    /// The same, of a path's UTF-8 bytes (a buffer, not any collection: a generic one would be
    /// walked through its witnesses by callers in other modules, for every file of a library).
    public static func lowercasedExtension(ofBytes bytes: UnsafeBufferPointer<UInt8>) -> String {
        let nameStart = bytes.lastIndex(of: slash).map(bytes.index(after:)) ?? bytes.startIndex
        // A path whose last name is empty or "." ("a/", "a/.") has the extension of the name before.
        guard nameStart != bytes.endIndex, !bytes[nameStart...].elementsEqual([Self.dot]) else {
            return RelativePath(String(decoding: bytes, as: UTF8.self)).lowercasedExtension
        }
        guard let dot = bytes[nameStart...].lastIndex(of: Self.dot), dot != nameStart, bytes.index(after: dot) != bytes.endIndex
        else { return "" }
        let suffix = bytes[bytes.index(after: dot)...]
        // Asked of every file of a large library, several times a build: an ASCII extension (all
        // of them, nearly) is lowered byte by byte, not through Unicode's case mapping.
        guard suffix.allSatisfy({ $0 < 0x80 }) else { return String(decoding: suffix, as: UTF8.self).lowercased() }
        return String(unsafeUninitializedCapacity: suffix.count) { buffer in
            for (at, byte) in suffix.enumerated() {
                buffer[at] = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
            }
            return suffix.count
        }
    }

    /// What `RelativePath(text).folder` is, without splitting the path into names when it has
    /// no empty and no "." name (a photo's path in the model has none): asked of every photo of a
    /// library, several times a build.
    public static func folder(of text: String) -> String {
        let bytes = text.utf8
        var lastSlash: String.Index?
        var length = 0
        var isDot = false
        for index in bytes.indices {
            let byte = bytes[index]
            if byte == slash {
                guard length > 0, !isDot else { return RelativePath(text).folder }
                lastSlash = index
                length = 0
            } else {
                isDot = length == 0 && byte == Self.dot
                length += 1
            }
        }
        guard length > 0, !isDot else { return RelativePath(text).folder }
        return lastSlash.map { String(decoding: bytes[..<$0], as: UTF8.self) } ?? ""
    }

    /// The name without its extension: "IMG_1" of "a/IMG_1.JPG".
    public var stem: String {
        guard let dot = Self.extensionDot(name) else { return name }
        return String(decoding: name.utf8[..<dot], as: UTF8.self)
    }

    /// The whole path without the last name's extension: "a/IMG_1" of "a/IMG_1.JPG".
    public var deletingExtension: RelativePath {
        guard !components.isEmpty else { return self }
        return RelativePath(components: components.dropLast() + [stem])
    }

    /// The path with one name, or a relative path, added under it (".." kept as a name, as `init`
    /// keeps it: `resolving` is what climbs).
    public func appending(_ other: String) -> RelativePath {
        RelativePath(components: components + RelativePath(other).components)
    }

    /// `other`, as written in a file in this folder, with ".." climbing: nil when it is absolute
    /// ("/", "~"), empty, or leads above the top.
    public func resolving(_ other: String) -> RelativePath? {
        guard !other.utf8.starts(with: [Self.slash]), !other.utf8.starts(with: "~".utf8) else { return nil }
        var names = components
        for name in RelativePath(other).components {
            if name == ".." {
                guard !names.isEmpty else { return nil }
                names.removeLast()
            } else {
                names.append(name)
            }
        }
        return names.isEmpty ? nil : RelativePath(components: names)
    }

    /// Whether `self` is `folder` or lies under it.
    public func isInside(_ folder: RelativePath) -> Bool {
        components.count >= folder.components.count
            && zip(components, folder.components).allSatisfy { $0.utf8.elementsEqual($1.utf8) }
    }

    /// Whether any name is hidden (begins with "."), as the content walk leaves such out.
    public var isHidden: Bool { components.contains { $0.utf8.first == Self.dot } }

    public static func == (a: RelativePath, b: RelativePath) -> Bool {
        a.components.count == b.components.count && zip(a.components, b.components).allSatisfy { $0.utf8.elementsEqual($1.utf8) }
    }

    public func hash(into hasher: inout Hasher) {
        for name in components {
            for byte in name.utf8 { hasher.combine(byte) }
            hasher.combine(Self.slash)
        }
    }

    /// By bytes, name by name, as SQLite orders text and a folder comes before its own contents.
    public static func < (a: RelativePath, b: RelativePath) -> Bool {
        for (x, y) in zip(a.components, b.components) where !x.utf8.elementsEqual(y.utf8) {
            return x.utf8.lexicographicallyPrecedes(y.utf8)
        }
        return a.components.count < b.components.count
    }

    private static let slash = UInt8(ascii: "/")
    private static let dot = UInt8(ascii: ".")

    /// The index of the dot that starts `name`'s extension: the last dot, when it is neither
    /// the first byte nor the last.
    private static func extensionDot(_ name: String) -> String.UTF8View.Index? {
        let bytes = name.utf8
        guard let dot = bytes.lastIndex(of: Self.dot), dot != bytes.startIndex, bytes.index(after: dot) != bytes.endIndex else { return nil }
        return dot
    }
}

extension String {
    /// This path (absolute or not) under `folder`, compared byte for byte: "a/b" of "/x/a/b" under
    /// "/x", "" for `folder` itself, nil outside it (a trailing "/" on `folder` is allowed). As
    /// Characters, "/x/\u{301}a" is not under "/x" (the slash and the mark are one Character), and
    /// "/x/café" written composed is under "/x/café" written decomposed, another folder on Linux.
    public func pathRelative(to folder: String) -> String? {
        var base = Array(folder.utf8)
        while base.count > 1, base.last == UInt8(ascii: "/") { base.removeLast() }
        let bytes = Array(utf8)
        guard bytes.starts(with: base) else { return nil }
        if bytes.count == base.count { return "" }
        let rest = bytes[base.count...]
        if base == [UInt8(ascii: "/")] { return String(decoding: rest, as: UTF8.self) }
        guard rest.first == UInt8(ascii: "/") else { return nil }
        return String(decoding: rest.dropFirst(), as: UTF8.self)
    }
}
