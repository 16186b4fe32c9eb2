import FolioCore
import Foundation

/// Walks a binary property list's objects before Foundation reads them, as Foundation would.
/// Foundation's reader recurses once a level, reads a shared object again for each reference,
/// and on Linux crashes the process on a set (a type no plist editor writes). So a file is
/// refused, naming the object, when it holds anything but a catalog's types, nests deeper than
/// `ReadingLimits.nesting`, holds itself, or would be read as more than
/// `ReadingLimits.propertyListObjects` objects. The walk reads only the trailer, the offset table,
/// each object's marker and the references: one step per reference.
enum BinaryPlistCheck {
    static let magic = Array("bplist0".utf8)

    /// Why the bytes cannot be a catalog, or nil when they are not a binary plist or Foundation
    /// may read them.
    static func refusal(_ data: Data) -> PropertyListReading.Refusal? {
        guard data.starts(with: magic) else { return nil }
        return data.withUnsafeBytes { raw in
            guard let table = ObjectTable(raw.bindMemory(to: UInt8.self)) else {
                return malformed("trailer is cut short or says what cannot be")
            }
            var walk = Walk(table: table, limit: ReadingLimits.propertyListObjects(size: raw.count))
            return walk.refusal()
        }
    }

    static func malformed(_ detail: String) -> PropertyListReading.Refusal {
        PropertyListReading.Refusal("not a readable property list (a binary one whose \(detail))")
    }

    /// The trailer's description of the objects: where each starts, and how references are
    /// written. Every read is checked against the file's end.
    struct ObjectTable {
        let bytes: UnsafeBufferPointer<UInt8>
        let count: Int
        let top: Int
        let offsetSize: Int
        let referenceSize: Int
        let tableStart: Int
        /// Where the trailer starts: no object reaches it.
        let end: Int

        init?(_ bytes: UnsafeBufferPointer<UInt8>) {
            guard bytes.count >= 8 + 32 else { return nil }
            let end = bytes.count - 32
            let (offsetSize, referenceSize) = (Int(bytes[end + 6]), Int(bytes[end + 7]))
            guard (1...8).contains(offsetSize), (1...8).contains(referenceSize),
                  let objects = Self.unsigned(bytes, at: end + 8, size: 8), let top = Self.unsigned(bytes, at: end + 16, size: 8),
                  let table = Self.unsigned(bytes, at: end + 24, size: 8),
                  objects >= 1, objects <= bytes.count, top < objects, table >= 8, table <= end,
                  table + objects * offsetSize <= end else { return nil }
            (self.bytes, count, self.top, self.offsetSize, self.referenceSize) = (bytes, objects, top, offsetSize, referenceSize)
            (tableStart, self.end) = (table, end)
        }

        /// Where object `index` starts, when that is inside the objects.
        func offset(of index: Int) -> Int? {
            guard let offset = unsigned(at: tableStart + index * offsetSize, size: offsetSize), offset >= 8, offset < end else { return nil }
            return offset
        }

        func byte(at offset: Int) -> Int? {
            offset >= 0 && offset < bytes.count ? Int(bytes[offset]) : nil
        }

        /// The big-endian number of `size` bytes at `offset`, when it is in the file and fits.
        func unsigned(at offset: Int, size: Int) -> Int? {
            Self.unsigned(bytes, at: offset, size: size)
        }

        static func unsigned(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, size: Int) -> Int? {
            guard offset >= 0, size <= 8, offset <= bytes.count - size else { return nil }
            var value: UInt64 = 0
            for index in offset..<(offset + size) { value = value << 8 | UInt64(bytes[index]) }
            return Int(exactly: value)
        }
    }

    /// One walk from the top object, depth first, without recursing: the arrays and dictionaries
    /// open on the way down are a stack of their own.
    private struct Walk {
        let table: ObjectTable
        let limit: Int
        /// For each object: 0 not yet met, `open` on the way down, else how many objects reading it
        /// makes (itself and all inside it, shared ones once per reference), at most `limit` + 1.
        var made: [UInt32]
        static let open = UInt32.max

        /// An array or dictionary being walked: where its references start, how many items (pairs,
        /// for a dictionary) it has, where its next reference is, how many are left, and the
        /// objects made so far.
        struct Frame {
            var object: Int
            var isDictionary: Bool
            var first: Int
            var count: Int
            var next: Int
            var left: Int
            var made: Int
        }

        init(table: ObjectTable, limit: Int) {
            self.table = table
            self.limit = min(limit, Int(UInt32.max) - 2)
            made = [UInt32](repeating: 0, count: table.count)
        }

        mutating func refusal() -> PropertyListReading.Refusal? {
            // The frames around the one being walked, outermost first.
            var outer: [Frame] = []
            var current: Frame
            switch enter(table.top) {
            case .refused(let refusal): return refusal
            case .leaf: return nil
            case .container(let frame): current = frame
            }
            while true {
                if current.left == 0 {
                    made[current.object] = UInt32(current.made)
                    guard var parent = outer.popLast() else { return nil }
                    if let refusal = add(current.made, to: &parent) { return refusal }
                    current = parent
                    continue
                }
                guard let child = table.unsigned(at: current.next, size: table.referenceSize), child < table.count else {
                    return malformed("object \(current.object) refers to an object that is not there")
                }
                current.next += table.referenceSize
                current.left -= 1
                switch made[child] {
                case Self.open:
                    let held = child == current.object ? "object \(child) holds itself" : "object \(current.object) holds object \(child), which holds it"
                    return PropertyListReading.Refusal("arrays and dictionaries hold one another in a loop (\(held))", inside: steps(outer + [current]))
                case 0:
                    switch enter(child) {
                    case .refused(let refusal): return refusal
                    case .leaf:
                        if let refusal = add(1, to: &current) { return refusal }
                    case .container(let frame):
                        guard outer.count + 2 <= ReadingLimits.nesting else {
                            return .tooDeep(at: "object \(child)", inside: steps(outer + [current]))
                        }
                        outer.append(current)
                        current = frame
                    }
                case let known:
                    if let refusal = add(Int(known), to: &current) { return refusal }
                }
            }
        }

        enum Entered { case leaf, container(Frame), refused(PropertyListReading.Refusal) }

        /// Object `index` met for the first time: a leaf is made at once, an array or dictionary
        /// is to be walked.
        mutating func enter(_ index: Int) -> Entered {
            guard let offset = table.offset(of: index), let marker = table.byte(at: offset) else {
                return .refused(malformed("object \(index) lies outside its objects"))
            }
            if let kind = BinaryPlistCheck.unsupported(marker) {
                return .refused(PropertyListReading.Refusal("not a catalog: object \(index) is \(kind), which a catalog cannot hold"))
            }
            guard marker >> 4 == 0xA || marker >> 4 == 0xD else {
                made[index] = 1
                return .leaf
            }
            let perItem = marker >> 4 == 0xD ? 2 : 1
            guard case let (count, first)? = contents(marker, at: offset), count <= table.end,
                  first + perItem * count * table.referenceSize <= table.end else {
                return .refused(malformed("object \(index) holds more than the file does"))
            }
            made[index] = Self.open
            return .container(Frame(object: index, isDictionary: perItem == 2, first: first, count: count, next: first,
                                    left: perItem * count, made: 1))
        }

        /// An array's or dictionary's count of objects (of pairs, for a dictionary) and where its
        /// references start: the marker's low four bits, or an integer object after it when they are all set.
        func contents(_ marker: Int, at offset: Int) -> (count: Int, first: Int)? {
            guard marker & 0xF == 0xF else { return (marker & 0xF, offset + 1) }
            guard let size = table.byte(at: offset + 1), size >> 4 == 0x1, size & 0xF <= 3,
                  let count = table.unsigned(at: offset + 2, size: 1 << (size & 0xF)) else { return nil }
            return (count, offset + 2 + 1 << (size & 0xF))
        }

        /// Adds objects made to an open array or dictionary; a refusal past the limit.
        func add(_ objects: Int, to frame: inout Frame) -> PropertyListReading.Refusal? {
            let total = frame.made + objects
            frame.made = min(total, limit + 1)
            guard total <= limit else {
                return PropertyListReading.Refusal("its shared objects would be read as more than \(limit) objects", inside: [])
            }
            return nil
        }

        /// The record and key the walk is in, for a message: the index in the top array, or the
        /// key (the value of a dictionary's pair) of the reference each of the outer two took last.
        func steps(_ frames: [Frame]) -> [PropertyListReading.Step] {
            var steps: [PropertyListReading.Step] = []
            for frame in frames.prefix(2) {
                let taken = (frame.isDictionary ? 2 : 1) * frame.count - frame.left - 1
                if !frame.isDictionary {
                    steps.append(.index(taken))
                } else if taken >= frame.count,
                          let reference = table.unsigned(at: frame.first + (taken - frame.count) * table.referenceSize, size: table.referenceSize),
                          let key = string(reference) {
                    steps.append(.key(key))
                } else {
                    break
                }
            }
            return steps
        }

        /// The text of a string object (ASCII or UTF-16), for a message.
        func string(_ index: Int) -> String? {
            guard index < table.count, let offset = table.offset(of: index), let marker = table.byte(at: offset),
                  marker >> 4 == 0x5 || marker >> 4 == 0x6, case let (count, first)? = contents(marker, at: offset) else { return nil }
            let shown = min(count, 200)
            let units = (0..<shown).compactMap { index in
                marker >> 4 == 0x5 ? table.byte(at: first + index) : table.unsigned(at: first + 2 * index, size: 2)
            }
            return marker >> 4 == 0x5 ? String(decoding: units.map(UInt8.init), as: UTF8.self)
                : String(decoding: units.map(UInt16.init), as: UTF16.self)
        }
    }

    /// The name of a marker's type when a catalog cannot have it.
    static func unsupported(_ marker: Int) -> String? {
        switch marker >> 4 {
        case 0x8: return "a UID (an archived object)"
        case 0xB, 0xC: return "a set"
        case 0x7, 0x9, 0xE, 0xF: return "of an unknown type (marker 0x\(String(marker, radix: 16)))"
        case 0x0 where ![0x00, 0x08, 0x09].contains(marker): return "of an unknown type (marker 0x\(String(marker, radix: 16)))"
        default: return nil
        }
    }
}
