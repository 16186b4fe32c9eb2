/// Runs `work` on every item with at most `width` at once, so memory stays flat whatever the
/// number of items; results come back in the items' order.
func boundedMap<Item: Sendable, Result: Sendable>(
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
