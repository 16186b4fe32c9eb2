import FolioCore
import Foundation

/// Reads the XML property lists tools write for catalogs without Foundation's parser, whose
/// objects reach Swift one bridged string at a time. It returns what `PropertyListSerialization`
/// returns (numbers as `NSNumber`s, flags as `Bool`s); anything it is not sure of (a comment,
/// CDATA, `<data>`, an entity beyond XML's own, a key twice, a CR) makes it give up, and
/// Foundation reads the catalog. Arrays and dictionaries deeper than `ReadingLimits.nesting` are
/// refused: each level is a call.
enum XMLPlist {
    enum Reading {
        case value(Any)
        /// An array or dictionary opened deeper than the limit, there, inside the values the
        /// steps lead to from the top.
        case tooDeep(NestingScan.Position, inside: [PropertyListReading.Step])
        /// Something this reader leaves to Foundation.
        case unknown

        var value: Any? {
            if case .value(let value) = self { return value }
            return nil
        }
    }

    static func read(_ data: Data) -> Reading {
        data.withUnsafeBytes { raw -> Reading in
            var reader = Reader(bytes: raw.bindMemory(to: UInt8.self))
            if let value = reader.document() { return .value(value) }
            guard let deep = reader.tooDeep else { return .unknown }
            return .tooDeep(NestingScan.Position(offset: deep, in: reader.bytes), inside: reader.trail.reversed())
        }
    }

    /// How a binary property list begins; an XML one never does.
    static let binaryMarker = Array("bplist".utf8)

    /// Each element of the document's top array: where it lies, and the hash of its bytes.
    struct Elements: Sendable, Equatable {
        var ranges: [Range<Int>] = []
        var hashes: [UInt64] = []
    }

    /// An element of the top array as an earlier reading of the document found it.
    struct KnownElement: Sendable {
        var length: Int
        var hash: UInt64
    }

    /// Where each element of the document's top array lies, found from its markup alone, no value
    /// read: what lets a catalog read again take the records whose bytes did not change from the
    /// last reading (`CatalogReader.reread`). Nil for any markup but plain tags (a comment,
    /// CDATA, a processing instruction, a DOCTYPE with declarations of its own, an attribute
    /// past `<plist …>`), or a document that is not one array.
    ///
    /// With the elements an earlier reading found (`known`, in their order), those whose bytes
    /// still stand at either end of the array, one after the other, are taken without a look at
    /// their markup (known by the hash of the bytes where each would be): an edit costs the
    /// markup of what lies between. The elements found are the same either way.
    static func elements(_ data: Data, knowing known: [KnownElement] = []) -> Elements? {
        if !known.isEmpty, let standing = elements(data, standingFrom: known) { return standing }
        let ranges = data.withUnsafeBytes { raw -> [Range<Int>]? in
            var reader = Reader(bytes: raw.bindMemory(to: UInt8.self))
            return reader.elementRanges()
        }
        guard let ranges else { return nil }
        let hashes = ranges.concurrentMap { range in data.withUnsafeBytes { ContentHash.hash(UnsafeRawBufferPointer(rebasing: $0[range])) } }
        return Elements(ranges: ranges, hashes: hashes)
    }

    /// The elements found with the `known` ones standing at either end (`elements(_:knowing:)`);
    /// nil where the markup between those is not elements that reach from one end to the other.
    static func elements(_ data: Data, standingFrom known: [KnownElement]) -> Elements? {
        data.withUnsafeBytes { raw -> Elements? in
            var reader = Reader(bytes: raw.bindMemory(to: UInt8.self))
            return reader.elements(knowing: known)
        }
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var at = 0
        /// Arrays and dictionaries open around the value being read.
        var depth = 0
        /// Where one opened deeper than the limit, which ends the reading.
        var tooDeep: Int?
        /// Once one is, the index or key of each value it lies in, innermost first: gathered as
        /// the reading gives up, level by level, so reading costs nothing more.
        var trail: [PropertyListReading.Step] = []

        init(bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
        }

        /// `<?xml …?>`, a DOCTYPE, `<plist …>`, one value, `</plist>`, and nothing else.
        mutating func document() -> Any? {
            skipBlanks()
            if starts("<?xml") { guard skip(past: "?>") else { return nil } }
            skipBlanks()
            if starts("<!DOCTYPE") { guard skip(past: ">") else { return nil } }
            skipBlanks()
            guard starts("<plist"), skip(past: ">") else { return nil }
            guard let value = value() else { return nil }
            skipBlanks()
            guard starts("</plist>") else { return nil }
            at += 8
            skipBlanks()
            return at == bytes.count ? value : nil
        }

        /// Past the document's opening to inside its top array: true when the array has elements
        /// to come, false when it is empty (`<array/>`); nil for anything but plain tags there.
        mutating func topArray() -> Bool? {
            skipBlanks()
            if starts("<?xml") {
                // An element parsed alone is read as UTF-8: a catalog in another encoding is parsed whole.
                let start = at
                guard skip(past: "?>") else { return nil }
                let declaration = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<at]), as: UTF8.self).lowercased()
                if declaration.contains("encoding"), !declaration.contains("utf-8") { return nil }
            }
            skipBlanks()
            if starts("<!DOCTYPE") {
                let start = at
                guard skip(past: ">"), !bytes[start..<at].contains(UInt8(ascii: "[")) else { return nil }
            }
            skipBlanks()
            guard starts("<plist"), skip(past: ">") else { return nil }
            skipBlanks()
            guard let top = openTag(), top.name == "array" else { return nil }
            return !top.empty
        }

        mutating func elementRanges() -> [Range<Int>]? {
            guard let open = topArray() else { return nil }
            var ranges: [Range<Int>] = []
            if open {
                while true {
                    skipBlanks()
                    if starts("</array>") { at += 8; break }
                    let start = at
                    guard skipElement() else { return nil }
                    ranges.append(start..<at)
                }
            }
            skipBlanks()
            guard starts("</plist>") else { return nil }
            at += 8
            skipBlanks()
            return at == bytes.count ? ranges : nil
        }

        /// `XMLPlist.elements(_:standingFrom:)`: the `known` elements standing at the front, then
        /// those standing at the back, then the markup between them.
        mutating func elements(knowing known: [KnownElement]) -> Elements? {
            guard topArray() == true, let close = arrayClose() else { return nil }
            var found = Elements()
            found.ranges.reserveCapacity(known.count + 1)
            found.hashes.reserveCapacity(known.count + 1)
            skipBlanks()
            while found.ranges.count < known.count, at + known[found.ranges.count].length <= close {
                let element = known[found.ranges.count]
                guard hash(at..<(at + element.length)) == element.hash else { break }
                found.ranges.append(at..<(at + element.length))
                found.hashes.append(element.hash)
                at += element.length
                skipBlanks()
            }
            // From the back: where each known element lies if those after it stand, by their lengths
            // alone; then the bytes there hashed in their order (memory read backwards is read
            // slowly). Those after the last that does not stand are the ones standing.
            var back: [Range<Int>] = []
            var end = close
            for element in known[found.ranges.count...].reversed() {
                var last = end
                while last > at, Self.isBlank(bytes[last - 1]) { last -= 1 }
                guard last - element.length >= at else { break }
                back.append((last - element.length)..<last)
                end = last - element.length
            }
            var standing = back.count
            for (offset, range) in back.enumerated().reversed() where hash(range) != known[known.count - 1 - offset].hash {
                standing = offset
            }
            back.removeLast(back.count - standing)
            end = back.last?.lowerBound ?? close
            let between = found.ranges.count
            while true {
                skipBlanks()
                if at == end { break }
                let start = at
                guard at < end, skipElement(), at <= end else { return nil }
                found.ranges.append(start..<at)
            }
            for range in found.ranges[between...] { found.hashes.append(hash(range)) }
            for (offset, range) in back.enumerated().reversed() {
                found.ranges.append(range)
                found.hashes.append(known[known.count - 1 - offset].hash)
            }
            return found
        }

        /// Where the top array's `</array>` begins, found from the document's end: nothing after
        /// it but `</plist>` and blanks.
        func arrayClose() -> Int? {
            var end = bytes.count
            for tag in ["</plist>", "</array>"] {
                while end > at, Self.isBlank(bytes[end - 1]) { end -= 1 }
                let utf8 = tag.utf8
                guard end - utf8.count >= at, bytes[(end - utf8.count)..<end].elementsEqual(utf8) else { return nil }
                end -= utf8.count
            }
            return end
        }

        func hash(_ range: Range<Int>) -> UInt64 {
            ContentHash.hash(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[range])))
        }

        /// Past one element: an open tag, the tags and text inside it, its close tag; false for
        /// anything else. The names are the parser's to match.
        mutating func skipElement() -> Bool {
            var depth = 0
            repeat {
                if depth > 0, let next = memchr(bytes.baseAddress! + at, Int32(UInt8(ascii: "<")), bytes.count - at) {
                    at = bytes.baseAddress!.distance(to: next.assumingMemoryBound(to: UInt8.self))
                }
                guard at + 1 < bytes.count, bytes[at] == UInt8(ascii: "<") else { return false }
                let closing = bytes[at + 1] == UInt8(ascii: "/")
                guard !closing || depth > 0 else { return false }
                let name = closing ? at + 2 : at + 1
                var end = name
                while end < bytes.count, Self.isLetter(bytes[end]) { end += 1 }
                guard end < bytes.count, end != name else { return false }
                if bytes[end] == UInt8(ascii: ">") {
                    depth += closing ? -1 : 1
                    at = end + 1
                } else {
                    // An empty element, `<name/>`; nothing else is a tag here.
                    guard !closing, bytes[end] == UInt8(ascii: "/"), end + 1 < bytes.count, bytes[end + 1] == UInt8(ascii: ">") else { return false }
                    at = end + 2
                }
            } while depth > 0
            return true
        }

        mutating func value() -> Any? {
            skipBlanks()
            let start = at
            guard let tag = openTag() else { return nil }
            switch tag.name {
            case "array":
                var items: [Any] = []
                if tag.empty { return items }
                guard enter(at: start) else { return nil }
                while true {
                    skipBlanks()
                    if starts("</array>") { at += 8; depth -= 1; return items }
                    guard let item = value() else {
                        if tooDeep != nil { trail.append(.index(items.count)) }
                        return nil
                    }
                    items.append(item)
                }
            case "dict":
                var fields: [String: Any] = [:]
                if tag.empty { return fields }
                guard enter(at: start) else { return nil }
                while true {
                    skipBlanks()
                    if starts("</dict>") { at += 7; depth -= 1; return fields }
                    guard let keyTag = openTag(), keyTag.name == "key", let key = keyTag.empty ? "" : text(closing: "key"),
                          fields[key] == nil else { return nil }
                    guard let item = value() else {
                        if tooDeep != nil { trail.append(.key(key)) }
                        return nil
                    }
                    fields[key] = item
                }
            case "string":
                return tag.empty ? "" : text(closing: "string")
            case "integer":
                guard !tag.empty, let text = text(closing: "integer"), let number = Int(text) else { return nil }
                return NSNumber(value: number)
            case "real":
                guard !tag.empty, let text = text(closing: "real"), text.utf8.allSatisfy({ Self.isNumeral($0) }),
                      let number = Double(text) else { return nil }
                return NSNumber(value: number)
            case "true" where tag.empty: return true
            case "false" where tag.empty: return false
            case "date":
                guard !tag.empty, let text = text(closing: "date") else { return nil }
                return Self.date(text)
            default:
                return nil
            }
        }

        /// One level deeper, for the array or dictionary opened at `start`; false past the limit.
        mutating func enter(at start: Int) -> Bool {
            depth += 1
            guard depth <= ReadingLimits.nesting else {
                tooDeep = start
                return false
            }
            return true
        }

        /// `<name>` or `<name/>`, without attributes.
        mutating func openTag() -> (name: Substring, empty: Bool)? {
            guard at < bytes.count, bytes[at] == UInt8(ascii: "<") else { return nil }
            var end = at + 1
            while end < bytes.count, Self.isLetter(bytes[end]) { end += 1 }
            guard end > at + 1, end < bytes.count else { return nil }
            let name = Substring(decoding: UnsafeBufferPointer(rebasing: bytes[(at + 1)..<end]), as: UTF8.self)
            if bytes[end] == UInt8(ascii: ">") {
                at = end + 1
                return (name, false)
            }
            if bytes[end] == UInt8(ascii: "/"), end + 1 < bytes.count, bytes[end + 1] == UInt8(ascii: ">") {
                at = end + 2
                return (name, true)
            }
            return nil
        }

        /// The text up to `</name>`, its entities read; nil for markup inside it, or an entity
        /// or a CR this reader leaves to Foundation.
        mutating func text(closing name: String) -> String? {
            let start = at
            var plain = true
            while at < bytes.count, bytes[at] != UInt8(ascii: "<") {
                if bytes[at] == UInt8(ascii: "&") { plain = false }
                // A control character (XML allows none but tab and line breaks; CR LF reads as LF).
                if bytes[at] < 0x20, bytes[at] != 0x09, bytes[at] != 0x0A { return nil }
                at += 1
            }
            let end = at
            guard starts("</\(name)>") else { return nil }
            at += name.utf8.count + 3
            let raw = UnsafeBufferPointer(rebasing: bytes[start..<end])
            return plain ? String(decoding: raw, as: UTF8.self) : Self.unescaped(raw)
        }

        static func unescaped(_ raw: UnsafeBufferPointer<UInt8>) -> String? {
            var out: [UInt8] = []
            out.reserveCapacity(raw.count)
            var index = 0
            while index < raw.count {
                let byte = raw[index]
                guard byte == UInt8(ascii: "&") else {
                    out.append(byte)
                    index += 1
                    continue
                }
                guard let semicolon = raw[index...].firstIndex(of: UInt8(ascii: ";")) else { return nil }
                let name = String(decoding: UnsafeBufferPointer(rebasing: raw[(index + 1)..<semicolon]), as: UTF8.self)
                let scalar: Unicode.Scalar?
                switch name {
                case "amp": scalar = "&"
                case "lt": scalar = "<"
                case "gt": scalar = ">"
                case "quot": scalar = "\""
                case "apos": scalar = "'"
                default:
                    if name.hasPrefix("#x") { scalar = UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init) }
                    else if name.hasPrefix("#") { scalar = UInt32(name.dropFirst(), radix: 10).flatMap(Unicode.Scalar.init) }
                    else { scalar = nil }
                }
                guard let scalar, scalar.value >= 0x20 || scalar == "\t" || scalar == "\n" else { return nil }
                out.append(contentsOf: String(Character(scalar)).utf8)
                index = semicolon + 1
            }
            return String(decoding: out, as: UTF8.self)
        }

        /// `2024-05-01T12:00:00Z`, as every plist writer writes a date; nil for anything else (and
        /// for years before 1600, where calendars part ways).
        static func date(_ text: String) -> Date? {
            let digits = Array(text.utf8)
            guard digits.count == 20, digits[4] == UInt8(ascii: "-"), digits[7] == UInt8(ascii: "-"), digits[10] == UInt8(ascii: "T"),
                  digits[13] == UInt8(ascii: ":"), digits[16] == UInt8(ascii: ":"), digits[19] == UInt8(ascii: "Z") else { return nil }
            func number(_ range: Range<Int>) -> Int? {
                var value = 0
                for byte in digits[range] {
                    guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                    value = value * 10 + Int(byte - UInt8(ascii: "0"))
                }
                return value
            }
            guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10), let hour = number(11..<13),
                  let minute = number(14..<16), let second = number(17..<19), year >= 1600, (1...12).contains(month),
                  (1...31).contains(day), hour < 24, minute < 60, second < 60 else { return nil }
            var components = DateComponents()
            (components.year, components.month, components.day) = (year, month, day)
            (components.hour, components.minute, components.second) = (hour, minute, second)
            guard let date = calendar.date(from: components),
                  calendar.component(.day, from: date) == day else { return nil }
            return date
        }

        private static let calendar: Calendar = {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "UTC")!
            return calendar
        }()

        mutating func skipBlanks() {
            while at < bytes.count, Self.isBlank(bytes[at]) { at += 1 }
        }

        static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A }

        func starts(_ text: String) -> Bool {
            let utf8 = text.utf8
            guard at + utf8.count <= bytes.count else { return false }
            return bytes[at..<(at + utf8.count)].elementsEqual(utf8)
        }

        /// Past the next `marker`.
        mutating func skip(past marker: String) -> Bool {
            while at < bytes.count {
                if starts(marker) { at += marker.utf8.count; return true }
                if bytes[at] == UInt8(ascii: "<") && at > 0 && starts("<!--") { return false }
                at += 1
            }
            return false
        }

        static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") }
        static func isNumeral(_ byte: UInt8) -> Bool {
            (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || "+-.eE".utf8.contains(byte)
        }
    }
}
