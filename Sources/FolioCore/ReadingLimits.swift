/// How much of what users and the network hand Folio it reads: each limit named once, far above
/// what any real file needs, and low enough that no input can exhaust the stack or the memory
/// of a build. A file beyond one is refused with a message naming it; the build goes on.
package enum ReadingLimits {
    /// How deep arrays, dictionaries, XML elements or Markdown blocks may lie inside one another.
    /// A catalog nests three deep, XMP about a dozen, settings and Flickr's answers a few. Foundation's
    /// parsers recurse, and Folio cannot bound them from outside: they are handed nothing deeper
    /// (their own limit lies deeper than a worker thread's stack reaches), and values this deep
    /// are freed without recursing far.
    package static let nesting = 100

    /// A property list: a catalog, or a folder's `album.plist`. Far more than the largest libraries'
    /// catalogs; it keeps a stray disk image named `.plist` from being read into memory whole.
    package static let propertyListBytes = 256 << 20

    /// The most objects a binary property list of `size` bytes may be read as. An object shared by
    /// several arrays or dictionaries is read once for each, so a small file could stand for
    /// billions; a writer that shares no array or dictionary spends at least a byte on each
    /// reference, so a real file stands for fewer objects than it has bytes (a small one, up to
    /// `1 << 20`).
    package static func propertyListObjects(size: Int) -> Int { max(1 << 20, size) }

    /// An XMP packet, embedded or a sidecar: more than Lightroom's sidecars, develop settings and all.
    package static let xmpBytes = 4 << 20

    /// A sigal description (`index.md`, `<photo>.md`): a page's text.
    package static let markdownBytes = 1 << 20

    /// A Google Takeout sidecar or album description: a few hundred bytes of JSON each.
    package static let takeoutBytes = 1 << 20

    /// `folio.json`: its settings, a long list of exclusions at most.
    static let settingsBytes = 1 << 20

    /// A size limit as messages give it.
    package static func megabytes(_ bytes: Int) -> String { "\(bytes >> 20) MB" }
}
