/// Positions in a builder's `ordered`, in a list's own order, each held in four bytes: a
/// library's lists by place, region, person and album name every photo several times over, and
/// a position is less than the number of photos.
struct PositionList: RandomAccessCollection, Sendable, Equatable, ExpressibleByArrayLiteral {
    private var positions: [UInt32]

    init() {
        positions = []
    }

    init(_ positions: some Sequence<Int>) {
        self.positions = positions.map(Self.held)
    }

    init(arrayLiteral positions: Int...) {
        self.init(positions)
    }

    var startIndex: Int { 0 }
    var endIndex: Int { positions.count }

    subscript(index: Int) -> Int { Int(positions[index]) }

    mutating func append(_ position: Int) {
        positions.append(Self.held(position))
    }

    mutating func reserveCapacity(_ count: Int) {
        positions.reserveCapacity(count)
    }

    mutating func sort(by areInIncreasingOrder: (Int, Int) throws -> Bool) rethrows {
        try positions.sort { try areInIncreasingOrder(Int($0), Int($1)) }
    }

    private static func held(_ position: Int) -> UInt32 {
        precondition(position >= 0 && position < UInt32.max, "a position past four bytes")
        return UInt32(position)
    }
}
