import Foundation

extension Array {
    /// Consecutive slices of at most `size` elements: SQL statements take a bounded number of
    /// arguments, and parallel work goes in batches.
    func chunked(_ size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}

extension Array {
    /// Where an element whose `key` is `value` is, in an array sorted by `key` (found by halving);
    /// nil when none is.
    func sortedIndex<Key: Comparable>(of value: Key, by key: (Element) -> Key) -> Int? {
        var (low, high) = (0, count)
        while low < high {
            let middle = (low + high) / 2
            if key(self[middle]) < value { low = middle + 1 } else { high = middle }
        }
        return low < count && key(self[low]) == value ? low : nil
    }
}

extension Array where Element: Comparable {
    /// Where `value` is in this sorted array (found by halving); nil when it is not in it.
    func sortedIndex(of value: Element) -> Int? {
        sortedIndex(of: value) { $0 }
    }
}

extension Array where Element: Sendable {
    /// `map` on every core, in order, for pure work on each of many elements (a large library's
    /// photos); an array shorter than `minimum` is mapped on this thread.
    func concurrentMap<T: Sendable>(minimum: Int = 4096, _ transform: @Sendable (Element) -> T) -> [T] {
        guard count >= minimum else { return map(transform) }
        let parts = Swift.max(1, Swift.min(ProcessInfo.processInfo.activeProcessorCount, 8))
        return [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            // Each part initializes its own elements, and no other part's.
            nonisolated(unsafe) let base = buffer.baseAddress!
            DispatchQueue.concurrentPerform(iterations: parts) { part in
                for index in count * part / parts..<count * (part + 1) / parts {
                    (base + index).initialize(to: transform(self[index]))
                }
            }
            initialized = count
        }
    }
}

/// `first` and `second` at once, the second on another core when there is one: two large pieces
/// of work that do not depend on each other (a large library's indexes).
func inParallel<A: Sendable, B: Sendable>(_ first: @Sendable () -> A, _ second: @Sendable () -> B) -> (A, B) {
    // Each part sets its own result, and both are done when `concurrentPerform` returns.
    nonisolated(unsafe) var a: A?
    nonisolated(unsafe) var b: B?
    DispatchQueue.concurrentPerform(iterations: 2) { part in
        if part == 0 { a = first() } else { b = second() }
    }
    return (a!, b!)
}

extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }

    /// Trimmed, or nil when nothing is left.
    public var nilIfBlank: String? {
        let trimmed = trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }
}
