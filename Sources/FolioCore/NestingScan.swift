import Foundation

/// How deep a text nests, found in one pass over its bytes without parsing it: for the files
/// handed to Foundation's parsers, which recurse once for each level and cannot be stopped from
/// outside. Each scan counts every level its parser would descend, and where it cannot tell
/// (a bracket it takes for one, a close tag it does not know) it errs deeper, so what passes
/// cannot take a parser deeper than the limit.
package enum NestingScan {
    /// Where a text first goes deeper than the limit: a line and a column, as an editor shows them.
    package struct Position: Equatable, CustomStringConvertible {
        var line: Int
        var column: Int
        package var description: String { "line \(line), column \(column)" }

        /// The position of the byte at `offset`.
        package init(offset: Int, in bytes: UnsafeBufferPointer<UInt8>) {
            let before = UnsafeBufferPointer(rebasing: bytes[..<offset])
            line = before.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
            let lineStart = before.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
            column = String(decoding: UnsafeBufferPointer(rebasing: bytes[lineStart..<offset]), as: UTF8.self).count + 1
        }

        init(line: Int, column: Int) {
            (self.line, self.column) = (line, column)
        }
    }

    /// The first array or object of a JSON text opened more than `limit` deep; nil when none is.
    package static func json(_ data: Data, limit: Int = ReadingLimits.nesting) -> Position? {
        scan(data) { bytes in
            var depth = 0
            var index = 0
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    index += 1
                    while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                        index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                    }
                case UInt8(ascii: "["), UInt8(ascii: "{"):
                    depth += 1
                    if depth > limit { return index }
                case UInt8(ascii: "]"), UInt8(ascii: "}"):
                    depth = max(0, depth - 1)
                default:
                    break
                }
                index += 1
            }
            return nil
        }
    }

    /// The first element of an XML text opened more than `limit` deep, counting only the elements
    /// `named` (all when nil); nil when none is. Comments, CDATA, processing instructions and
    /// declarations hold no elements; a start tag's attribute values are quoted, and may hold a
    /// `>`. UTF-16 is read as such.
    static func xml(_ data: Data, limit: Int = ReadingLimits.nesting, named names: [String]? = nil) -> Position? {
        if let utf8 = utf16AsUTF8(data) { return xml(utf8, limit: limit, named: names) }
        let names = names?.map { Array($0.utf8) }
        return scan(data) { bytes in
            let count = bytes.count
            func starts(_ text: StaticString, at index: Int) -> Bool {
                guard index + text.utf8CodeUnitCount <= count else { return false }
                for offset in 0..<text.utf8CodeUnitCount where bytes[index + offset] != text.utf8Start[offset] { return false }
                return true
            }
            /// The index just past the first `end` from `index`, or the end of the text.
            func past(_ end: StaticString, from index: Int) -> Int {
                var at = index
                while at < count, !starts(end, at: at) { at += 1 }
                return min(count, at + end.utf8CodeUnitCount)
            }
            /// Whether the element whose name starts at `index` is one that counts.
            func counts(at index: Int) -> Bool {
                guard let names else { return true }
                var end = index
                while end < count, ![0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: "/"), UInt8(ascii: ">")].contains(bytes[end]) { end += 1 }
                return names.contains { $0.elementsEqual(bytes[index..<end]) }
            }
            var depth = 0
            var index = 0
            while index < count {
                guard bytes[index] == UInt8(ascii: "<"), index + 1 < count else {
                    index += 1
                    continue
                }
                let start = index
                switch bytes[index + 1] {
                case UInt8(ascii: "?"):
                    index = past("?>", from: index + 2)
                case UInt8(ascii: "!"):
                    if starts("<!--", at: index) {
                        index = past("-->", from: index + 4)
                    } else if starts("<![CDATA[", at: index) {
                        index = past("]]>", from: index + 9)
                    } else {
                        index = past(">", from: index + 2)
                    }
                case UInt8(ascii: "/"):
                    if counts(at: index + 2) { depth = max(0, depth - 1) }
                    index = past(">", from: index + 2)
                default:
                    let counted = counts(at: index + 1)
                    var quote: UInt8?
                    index += 1
                    while index < count {
                        let byte = bytes[index]
                        if let open = quote {
                            if byte == open { quote = nil }
                        } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                            quote = byte
                        } else if byte == UInt8(ascii: ">") {
                            break
                        }
                        index += 1
                    }
                    let empty = index < count && bytes[index - 1] == UInt8(ascii: "/")
                    index += 1
                    if counted, !empty {
                        depth += 1
                        if depth > limit { return start }
                    }
                }
            }
            return nil
        }
    }

    /// A text property list as Foundation tells them apart: XML when its first character but
    /// blanks (and a byte-order mark) is `<`, else old-style (OpenStep). In XML only arrays and
    /// dictionaries hold values (any other element is a value, or no property list at all), and
    /// the `<plist>` element around the value is no level.
    package static func propertyList(_ data: Data, limit: Int = ReadingLimits.nesting) -> Position? {
        if let utf8 = utf16AsUTF8(data) { return propertyList(utf8, limit: limit) }
        let first = data.first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
        return first == UInt8(ascii: "<") ? xml(data, limit: limit + 1, named: ["array", "dict", "plist"]) : openStep(data, limit: limit)
    }

    /// The first array or dictionary of an old-style (OpenStep) property list opened more than
    /// `limit` deep; nil when none is. Quoted strings and comments hold none.
    static func openStep(_ data: Data, limit: Int = ReadingLimits.nesting) -> Position? {
        if let utf8 = utf16AsUTF8(data) { return openStep(utf8, limit: limit) }
        return scan(data) { bytes in
            var depth = 0
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                let next = index + 1 < bytes.count ? bytes[index + 1] : 0
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "'"):
                    index += 1
                    while index < bytes.count, bytes[index] != byte {
                        index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                    }
                case UInt8(ascii: "/") where next == UInt8(ascii: "*"):
                    index += 2
                    while index + 1 < bytes.count, !(bytes[index] == UInt8(ascii: "*") && bytes[index + 1] == UInt8(ascii: "/")) { index += 1 }
                    index += 1
                case UInt8(ascii: "/") where next == UInt8(ascii: "/"):
                    while index < bytes.count, bytes[index] != 0x0A, bytes[index] != 0x0D { index += 1 }
                case UInt8(ascii: "("), UInt8(ascii: "{"):
                    depth += 1
                    if depth > limit { return index }
                case UInt8(ascii: ")"), UInt8(ascii: "}"):
                    depth = max(0, depth - 1)
                default:
                    break
                }
                index += 1
            }
            return nil
        }
    }

    /// Runs `find` over the bytes and gives the position of the offset it returns.
    private static func scan(_ data: Data, _ find: (UnsafeBufferPointer<UInt8>) -> Int?) -> Position? {
        data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            return find(bytes).map { Position(offset: min($0, bytes.count), in: bytes) }
        }
    }

    /// A text in UTF-16 (by its byte-order mark, or a NUL beside its first character) as UTF-8,
    /// so its markup is found where its parser finds it; nil for any other text.
    private static func utf16AsUTF8(_ data: Data) -> Data? {
        guard data.count >= 2 else { return nil }
        let first = data[data.startIndex], second = data[data.startIndex + 1]
        let encoding: String.Encoding
        switch (first, second) {
        case (0xFE, 0xFF), (0x00, _): encoding = .utf16BigEndian
        case (0xFF, 0xFE), (_, 0x00): encoding = .utf16LittleEndian
        default: return nil
        }
        let hasMark = (first == 0xFE && second == 0xFF) || (first == 0xFF && second == 0xFE)
        return String(data: hasMark ? data.dropFirst(2) : data, encoding: encoding).map { Data($0.utf8) }
    }
}
