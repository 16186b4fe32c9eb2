import FolioCore

/// Positions in a builder's `ordered`, in a list's own order. A library's lists by place, region,
/// person and album name every photo several times over, so each position is held as its step
/// from the one before, in as few bytes as the step needs: a list newest first steps forward,
/// most often by little. Every `stride`th position is held whole, with where the steps after it
/// start, so any one is found by reading at most `stride - 1` steps, and a pass reads each once.
struct PositionList: RandomAccessCollection, Sendable, Equatable, ExpressibleByArrayLiteral {
    /// Each step, but those to a position held whole, as a packed number (`PackedWriter.number`:
    /// a step back is as short as one forward).
    private var steps = PackedWriter()
    private var marks: [Mark] = []
    private var length = 0
    /// The last position appended.
    private var last = 0

    /// A position held whole, and where the steps after it start in `steps`.
    private struct Mark {
        var position: UInt32
        var steps: UInt32
    }

    private static let stride = 16

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
        let mark = marks[index / Self.stride]
        var position = Int(mark.position)
        steps.bytes.withUnsafeBytes { bytes in
            var reader = PackedReader(bytes)
            reader.skip(Int(mark.steps))
            for _ in 0..<(index % Self.stride) { position += Int(reader.number()) }
        }
        return position
    }

    func makeIterator() -> Iterator { Iterator(list: self) }

    /// Reads each step once, rather than from its mark for each position.
    struct Iterator: IteratorProtocol {
        fileprivate let list: PositionList
        private var index = 0
        private var position = 0
        private var at = 0

        fileprivate init(list: PositionList) {
            self.list = list
        }

        mutating func next() -> Int? {
            guard index < list.length else { return nil }
            if index % PositionList.stride == 0 {
                let mark = list.marks[index / PositionList.stride]
                (position, at) = (Int(mark.position), Int(mark.steps))
            } else {
                list.steps.bytes.withUnsafeBytes { bytes in
                    var reader = PackedReader(bytes)
                    reader.skip(at)
                    position += Int(reader.number())
                    at = reader.position
                }
            }
            index += 1
            return position
        }
    }

    /// Where `position` first is in the list, read in one pass.
    func firstIndex(of position: Int) -> Int? {
        for (index, each) in enumerated() where each == position { return index }
        return nil
    }

    mutating func append(_ position: Int) {
        precondition(position >= 0 && position < UInt32.max, "a position past four bytes")
        if length % Self.stride == 0 {
            precondition(steps.bytes.count < UInt32.max, "a list's steps past four bytes of them")
            marks.append(Mark(position: UInt32(position), steps: UInt32(steps.bytes.count)))
        } else {
            steps.number(Int64(position - last))
        }
        last = position
        length += 1
    }

    /// Room for `count` positions, a byte a step: the steps of a list of many photos are short.
    mutating func reserveCapacity(_ count: Int) {
        marks.reserveCapacity((count + Self.stride - 1) / Self.stride)
        steps.bytes.reserveCapacity(count)
    }

    /// Holds no more room than its steps take, once every position is in.
    mutating func letGoOfRoom() {
        guard steps.bytes.capacity > steps.bytes.count else { return }
        steps.bytes = steps.bytes.withUnsafeBufferPointer { Array($0) }
    }

    mutating func sort(by areInIncreasingOrder: (Int, Int) throws -> Bool) rethrows {
        var positions = Array(self)
        try positions.sort(by: areInIncreasingOrder)
        self = PositionList(positions)
    }
}
