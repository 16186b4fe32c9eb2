/// The memory image work may hold at once. A job waits until its estimated need fits beside
/// the jobs running, first come first served, so peak memory stays flat whatever the photos:
/// a hundred small ones side by side, one huge one alone.
actor MemoryBudget {
    let capacity: Int
    private var used = 0
    private var waiting: [(bytes: Int, resume: CheckedContinuation<Void, Never>)] = []

    init(bytes: Int) {
        capacity = bytes
    }

    /// How many jobs are waiting for room.
    var queued: Int { waiting.count }

    /// Whether a job needing `bytes` can ever run.
    nonisolated func affords(_ bytes: Int) -> Bool { bytes <= capacity }

    /// Waits until `bytes` fit; a job needing more than the whole budget should not ask.
    func acquire(_ bytes: Int) async {
        let bytes = min(bytes, capacity)
        if waiting.isEmpty, used + bytes <= capacity {
            used += bytes
            return
        }
        await withCheckedContinuation { waiting.append((bytes, $0)) }
    }

    func release(_ bytes: Int) {
        used -= min(bytes, capacity)
        while let first = waiting.first, used + first.bytes <= capacity {
            waiting.removeFirst()
            used += first.bytes
            first.resume.resume()
        }
    }
}
