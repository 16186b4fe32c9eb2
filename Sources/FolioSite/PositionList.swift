import FolioCore

/// Positions in a builder's `ordered`, in a list's own order. A library's lists by place, region,
/// person and album name every photo several times over, so each position is held as its step
/// from the one before, in as few bytes as the step needs: a list newest first steps forward,
/// most often by little. Every `stride`th position is held whole (a mark), with where the steps
/// after it start, so any one is found by reading at most `stride - 1` steps, and a pass reads
/// each once.
///
/// Once a large site is laid out, its lists are records in a store that spills to a file
/// (`spilled(into:)`): a page then reads the marks and steps of its own positions, and a list of
/// hundreds of thousands of photos costs the build a few numbers while it is drawn.
struct PositionList: RandomAccessCollection, Sendable, Equatable, ExpressibleByArrayLiteral {
    private enum Storage: Sendable {
        /// Each step, but those to a position held whole, as a packed number (`PackedWriter.number`:
        /// a step back is as short as one forward); and the marks.
        case held(steps: PackedWriter, marks: [Mark])
        /// A record of `store` at `record`: the marks, eight bytes each, then the steps, `stepBytes` of them.
        case spilled(store: PackedStore, record: Int, stepBytes: Int)
    }

    private var storage = Storage.held(steps: PackedWriter(), marks: [])
    private var length = 0
    /// The last position appended.
    private var last = 0

    /// A position held whole, and where the steps after it start.
    private struct Mark {
        var position: UInt32
        var steps: UInt32

        static let size = 8
    }

    private static let stride = 16

    /// The size from which the store of a site's spilled lists goes to its file: the lists of a
    /// site of a few hundred thousand photos take a few megabytes as steps, less than a photo
    /// store keeps in memory (`PackedStore.spillSize`), and a page reads only its own piece.
    static let storeSpillSize = 1 << 19

    static func == (a: PositionList, b: PositionList) -> Bool {
        a.elementsEqual(b)
    }

    init() {}

    init(_ positions: some Sequence<Int>) {
        for position in positions { append(position) }
        letGoOfRoom()
    }

    init(arrayLiteral positions: Int...) {
        self.init(positions)
    }

    var startIndex: Int { 0 }
    var endIndex: Int { length }

    subscript(index: Int) -> Int {
        precondition(index >= 0 && index < length, "position \(index) of a list of \(length)")
        if case .held(let steps, let marks) = storage {
            let mark = marks[index / Self.stride]
            var position = Int(mark.position)
            steps.bytes.withUnsafeBytes { bytes in
                var reader = PackedReader(bytes)
                reader.skip(Int(mark.steps))
                for _ in 0..<(index % Self.stride) { position += Int(reader.number()) }
            }
            return position
        }
        return positions(in: index..<(index + 1))[0]
    }

    /// The positions at `range` of the list, read at once: a page's, from a spilled list, in a
    /// read of their marks and a read of their steps.
    func positions(in range: Range<Int>) -> [Int] {
        precondition(range.lowerBound >= 0 && range.upperBound <= length, "positions \(range) of a list of \(length)")
        guard !range.isEmpty else { return [] }
        let numbers = (range.lowerBound / Self.stride)...((range.upperBound - 1) / Self.stride)
        var positions: [Int] = []
        positions.reserveCapacity(range.count)
        withMarks(numbers) { marks, steps, stepsStart in
            for (offset, mark) in marks.enumerated() {
                let number = numbers.lowerBound + offset
                var reader = PackedReader(steps)
                reader.skip(Int(mark.steps) - stepsStart)
                let first = number * Self.stride
                var position = Int(mark.position)
                for index in first..<Swift.min(first + Self.stride, range.upperBound) {
                    if index > first { position += Int(reader.number()) }
                    if index >= range.lowerBound { positions.append(position) }
                }
            }
        }
        return positions
    }

    /// The marks numbered `numbers`, and the steps from the first of them to where the last one's
    /// end (the bytes given start at step byte `stepsStart`).
    private func withMarks(_ numbers: ClosedRange<Int>, _ body: (ArraySlice<Mark>, UnsafeRawBufferPointer, _ stepsStart: Int) -> Void) {
        switch storage {
        case .held(let steps, let marks):
            steps.bytes.withUnsafeBytes { body(marks[numbers], $0, 0) }
        case .spilled(let store, let record, let stepBytes):
            let markCount = (length + Self.stride - 1) / Self.stride
            // The mark after the last says where its steps end.
            let read = numbers.lowerBound..<Swift.min(numbers.upperBound + 2, markCount)
            let marks = store.withRecord(at: record, part: (read.lowerBound * Mark.size)..<(read.upperBound * Mark.size)) { bytes in
                read.map { number in
                    let at = (number - read.lowerBound) * Mark.size
                    return Mark(position: UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: at, as: UInt32.self)),
                                steps: UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: at + 4, as: UInt32.self)))
                }
            }
            let stepsStart = Int(marks[0].steps)
            let stepsEnd = read.count > numbers.count ? Int(marks[numbers.count].steps) : stepBytes
            let stepsPart = (markCount * Mark.size + stepsStart)..<(markCount * Mark.size + stepsEnd)
            store.withRecord(at: record, part: stepsPart) { body(marks[..<numbers.count], $0, stepsStart) }
        }
    }

    func makeIterator() -> Iterator { Iterator(list: self) }

    /// Reads the list a piece at a time, each step once, rather than from its mark for each position.
    struct Iterator: IteratorProtocol {
        fileprivate let list: PositionList
        private var piece: [Int] = []
        private var index = 0
        private var read = 0

        /// How many positions a piece holds: as many as a few pages show.
        private static let pieceLength = 1_024

        fileprivate init(list: PositionList) {
            self.list = list
        }

        mutating func next() -> Int? {
            if read == piece.count {
                guard index < list.length else { return nil }
                piece = list.positions(in: index..<Swift.min(index + Self.pieceLength, list.length))
                read = 0
            }
            defer { (read, index) = (read + 1, index + 1) }
            return piece[read]
        }
    }

    /// Where `position` first is in the list, read in one pass.
    func firstIndex(of position: Int) -> Int? {
        for (index, each) in enumerated() where each == position { return index }
        return nil
    }

    mutating func append(_ position: Int) {
        precondition(position >= 0 && position < UInt32.max, "a position past four bytes")
        guard case .held(var steps, var marks) = storage else { preconditionFailure("a spilled list takes no more positions") }
        // Let go while it grows, so the arrays are not copied for each position.
        storage = .held(steps: PackedWriter(), marks: [])
        if length % Self.stride == 0 {
            precondition(steps.bytes.count < UInt32.max, "a list's steps past four bytes of them")
            marks.append(Mark(position: UInt32(position), steps: UInt32(steps.bytes.count)))
        } else {
            steps.number(Int64(position - last))
        }
        storage = .held(steps: steps, marks: marks)
        last = position
        length += 1
    }

    /// Room for `count` positions, a byte a step: the steps of a list of many photos are short.
    mutating func reserveCapacity(_ count: Int) {
        guard case .held(var steps, var marks) = storage else { return }
        storage = .held(steps: PackedWriter(), marks: [])
        marks.reserveCapacity((count + Self.stride - 1) / Self.stride)
        steps.bytes.reserveCapacity(count)
        storage = .held(steps: steps, marks: marks)
    }

    /// Holds no more room than its steps take, once every position is in.
    mutating func letGoOfRoom() {
        guard case .held(var steps, let marks) = storage, steps.bytes.capacity > steps.bytes.count else { return }
        steps.bytes = steps.bytes.withUnsafeBufferPointer { Array($0) }
        storage = .held(steps: steps, marks: marks)
    }

    /// The same list as a record of `store`, read from there a piece at a time. The store is
    /// sealed before the list is read.
    func spilled(into store: PackedStore) -> PositionList {
        guard case .held(let steps, let marks) = storage, length > 0 else { return self }
        let record = store.append { writer in
            for mark in marks {
                withUnsafeBytes(of: mark.position.littleEndian) { writer.bytes.append(contentsOf: $0) }
                withUnsafeBytes(of: mark.steps.littleEndian) { writer.bytes.append(contentsOf: $0) }
            }
            writer.bytes.append(contentsOf: steps.bytes)
        }
        var list = self
        list.storage = .spilled(store: store, record: record, stepBytes: steps.bytes.count)
        return list
    }

    /// Whether it is read from a store's record (tests).
    var isSpilled: Bool {
        if case .spilled = storage { return true }
        return false
    }

    mutating func sort(by areInIncreasingOrder: (Int, Int) throws -> Bool) rethrows {
        var positions = Array(self)
        try positions.sort(by: areInIncreasingOrder)
        self = PositionList(positions)
    }
}
