import Foundation

extension RandomAccessCollection where Index == Int {
    /// Consecutive slices of at most `size` elements: SQL statements take a bounded number of
    /// arguments, and parallel work goes in batches.
    package func chunked(_ size: Int) -> [SubSequence] {
        stride(from: startIndex, to: endIndex, by: size).map { self[$0..<Swift.min($0 + size, endIndex)] }
    }
}

extension Array {
    /// Sorts as `sort(by:)` does (stably), without its scratch space for half the elements:
    /// the elements' positions are sorted (four bytes each), then each element is moved to its
    /// place along the cycles they make. For arrays of large elements sorted where a large
    /// build's memory peaks: a library's photos (`GalleryPhoto`), a manifest's rows.
    package mutating func sortWithoutScratch(by areInIncreasingOrder: (Element, Element) throws -> Bool) rethrows {
        let from = try withUnsafeBufferPointer { elements in
            try positionsSorted { try areInIncreasingOrder(elements[$0], elements[$1]) }
        }
        if let from { permute(from: from) }
    }

    /// The same, the elements ordered as `areInIncreasingOrder` orders their positions (by keys
    /// made once for each element, say).
    package mutating func sortWithoutScratch(byPositions areInIncreasingOrder: (Int, Int) throws -> Bool) rethrows {
        if let from = try positionsSorted(by: areInIncreasingOrder) { permute(from: from) }
    }

    /// The positions in sorted order; nil when there is nothing to sort.
    private func positionsSorted(by areInIncreasingOrder: (Int, Int) throws -> Bool) rethrows -> [Int32]? {
        guard count > 1 else { return nil }
        precondition(count < Int32.max, "positions are four bytes")
        var from = [Int32](unsafeUninitializedCapacity: count) { positions, made in
            for at in 0..<count { positions[at] = Int32(at) }
            made = count
        }
        try from.sort { try areInIncreasingOrder(Int($0), Int($1)) }
        return from
    }

    /// Each element moved to its place, the one at `from[at]` to `at`.
    private mutating func permute(from: consuming [Int32]) {
        // The element at `from[at]` goes to `at`: each cycle followed once, its first element
        // held while the others move up, each place marked done (-1) as it is filled.
        for start in 0..<count {
            var next = Int(from[start])
            guard next >= 0, next != start else { continue }
            let held = self[start]
            var at = start
            while next != start {
                self[at] = self[next]
                from[at] = -1
                at = next
                next = Int(from[at])
            }
            self[at] = held
            from[at] = -1
        }
    }
}

extension RandomAccessCollection where Index == Int {
    /// Where an element whose `key` is `value` is, in a collection sorted by `key` (found by
    /// halving); nil when none is. Its indices start at 0.
    @inlinable package func sortedIndex<Key: Comparable>(of value: Key, by key: (Element) -> Key) -> Int? {
        var (low, high) = (0, count)
        while low < high {
            let middle = (low + high) / 2
            if key(self[middle]) < value { low = middle + 1 } else { high = middle }
        }
        return low < count && key(self[low]) == value ? low : nil
    }
}

extension RandomAccessCollection where Index == Int, Element: Comparable {
    /// Where `value` is in this sorted collection (found by halving); nil when it is not in it.
    @inlinable package func sortedIndex(of value: Element) -> Int? {
        sortedIndex(of: value) { $0 }
    }
}

extension RandomAccessCollection where Self: Sendable, Index == Int, Element: Sendable {
    /// `map` on every core, in order, for pure work on each of many elements (a large library's
    /// photos); a collection shorter than `minimum` is mapped on this thread. The elements go in
    /// sixteen parts a core, each core taking the next part left as it is done, so one slow
    /// element (the one large catalog an edit changed) does not leave the other cores idle.
    /// Inlinable, so it is made for each collection that calls it: a `PhotoRows`' photos then
    /// go to `transform` lent, as an array's elements do, not each copied through a generic call.
    @inlinable package func concurrentMap<T: Sendable>(minimum: Int = 4096, _ transform: @Sendable (Element) -> T) -> [T] {
        guard count >= minimum else { return map(transform) }
        let parts = Swift.max(1, Swift.min(count, 16 * Swift.min(ProcessInfo.processInfo.activeProcessorCount, 8)))
        return [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            // Each part initializes its own elements, and no other part's.
            nonisolated(unsafe) let base = buffer.baseAddress!
            DispatchQueue.concurrentPerform(iterations: parts) { part in
                for index in count * part / parts..<count * (part + 1) / parts {
                    (base + index).initialize(to: transform(self[startIndex + index]))
                }
            }
            initialized = count
        }
    }
}

extension Array where Element: Sendable {
    /// `sorted(by:)` on two cores: each half sorted on a core of its own, then the two merged,
    /// the first half's element first where neither comes before the other (as the stable sort
    /// of the whole keeps them). For comparisons that cost (names compared as a reader would).
    package func sortedInParallel(by before: @Sendable (Element, Element) -> Bool) -> [Element] {
        guard count >= 64 else { return sorted(by: before) }
        let middle = count / 2
        let (first, second) = inParallel({ self[..<middle].sorted(by: before) }, { self[middle...].sorted(by: before) })
        var merged: [Element] = []
        merged.reserveCapacity(count)
        var (a, b) = (0, 0)
        while a < first.count && b < second.count {
            if before(second[b], first[a]) {
                merged.append(second[b])
                b += 1
            } else {
                merged.append(first[a])
                a += 1
            }
        }
        merged += first[a...]
        merged += second[b...]
        return merged
    }
}

/// `first` and `second` at once, the second on another core when there is one: two large pieces
/// of work that do not depend on each other (a large library's indexes).
package func inParallel<A: Sendable, B: Sendable>(_ first: @Sendable () -> A, _ second: @Sendable () -> B) -> (A, B) {
    // Each part sets its own result, and both are done when `concurrentPerform` returns.
    nonisolated(unsafe) var a: A?
    nonisolated(unsafe) var b: B?
    DispatchQueue.concurrentPerform(iterations: 2) { part in
        if part == 0 { a = first() } else { b = second() }
    }
    return (a!, b!)
}

/// A value made on another core from the moment this is made, handed whole to the one that
/// takes it: a `Task` keeps its value, so the value awaited from one and then changed is copied
/// (the last build's search postings, changed in place by an edit).
package final class MadeBeside<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value?
    private var making: Task<Void, Never>?

    package init(_ make: @escaping @Sendable () -> Value?) {
        making = Task { [self] in
            let made = make()
            lock.withLock { value = made }
        }
    }

    /// The value once it is made; nil when it was taken before (or none was made).
    package func take() async -> Value? {
        await making?.value
        return lock.withLock {
            defer { value = nil }
            return value
        }
    }
}

/// A value passed on to the one that takes it, which then holds the only copy: a step's input
/// is held by its caller until the step returns, so a large value in it is copied by any change
/// made to it there (the photos a build leaves out of its pages).
package final class Handover<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value?

    package init(_ value: consuming Value) {
        self.value = value
    }

    /// The value; taken once.
    package func take() -> Value {
        lock.withLock {
            guard let value else { preconditionFailure("a value handed over was taken twice") }
            self.value = nil
            return value
        }
    }
}

extension String {
    package var nilIfEmpty: String? { isEmpty ? nil : self }

    /// Trimmed, or nil when nothing is left.
    public var nilIfBlank: String? {
        let trimmed = trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }
}
