import Foundation

/// Runs `work` on every item with at most `width` at once, so memory stays flat whatever the
/// number of items; results come back in the items' order.
package func boundedMap<Item: Sendable, Result: Sendable>(
    _ items: [Item], width: Int, onEach: (@Sendable (Int) -> Void)? = nil,
    _ work: @escaping @Sendable (Item) async -> Result
) async -> [Result] {
    var results = [Result?](repeating: nil, count: items.count)
    await withTaskGroup(of: (Int, Result).self) { group in
        var next = 0
        var done = 0
        func start() {
            let index = next
            let item = items[index]
            group.addTask { (index, await work(item)) }
            next += 1
        }
        while next < min(width, items.count) { start() }
        while let (index, result) = await group.next() {
            results[index] = result
            done += 1
            onEach?(done)
            if next < items.count { start() }
        }
    }
    return results.map { $0! }
}

/// `work` on every item, `width` at once on threads of their own, started in the items' order,
/// the caller waiting until all are done; results come back in the items' order. For work that
/// must stay within a synchronous scope (the import's reads, within the model's transaction).
/// `onEach` is told how many are done, one call at a time.
package func orderedConcurrentMap<Item: Sendable, Result: Sendable>(
    _ items: [Item], width: Int, onEach: (@Sendable (Int) -> Void)? = nil,
    _ work: @Sendable (Item) -> Result
) -> [Result] {
    guard !items.isEmpty else { return [] }
    let lock = NSLock()
    // Handed out and counted under `lock`; each result is set by the one thread that took it.
    nonisolated(unsafe) var next = 0
    nonisolated(unsafe) var done = 0
    var results = [Result?](repeating: nil, count: items.count)
    results.withUnsafeMutableBufferPointer { buffer in
        nonisolated(unsafe) let base = buffer.baseAddress!
        DispatchQueue.concurrentPerform(iterations: max(1, min(width, items.count))) { _ in
            while true {
                let index: Int = lock.withLock { defer { next += 1 }; return next }
                guard index < items.count else { return }
                (base + index).pointee = work(items[index])
                lock.withLock {
                    done += 1
                    onEach?(done)
                }
            }
        }
    }
    return results.map { $0! }
}
