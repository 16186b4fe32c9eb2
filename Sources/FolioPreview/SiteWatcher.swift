import Foundation

/// Watches a site's inputs (content/, templates/, folio.json, a theme folder) by polling
/// snapshots, and reports a change once the files have settled: saving a file, or copying in a
/// batch of photos, is a burst of writes that should cost one build, not one per write.
struct SiteWatcher: Sendable {
    /// How often the files are looked at while nothing happens.
    let interval: TimeInterval
    /// How long the files must stay unchanged before the change is reported.
    let settle: TimeInterval
    /// A burst longer than this is reported anyway, so a slow copy still shows progress.
    var longestWait: TimeInterval = 5
    /// How the watcher looks at the files, waits, and tells the time: the file system and the
    /// clock, or a script in tests.
    let look: @Sendable () async -> FolderSnapshot
    var sleep: @Sendable (TimeInterval) async -> Void = { try? await Task.sleep(nanoseconds: SiteWatcher.nanoseconds($0)) }
    var now: @Sendable () -> Date = { Date() }

    /// Watches `roots` (folders or single files) on disk, nothing under `excluded`, looking only
    /// while `pause` is open.
    init(roots: [URL], excluded: [URL], interval: TimeInterval, settle: TimeInterval, pause: WatchPause = WatchPause()) {
        self.interval = interval
        self.settle = settle
        look = {
            await pause.whileOpen()
            return FolderSnapshot.take(roots, excluding: excluded)
        }
    }

    init(interval: TimeInterval, settle: TimeInterval, look: @escaping @Sendable () async -> FolderSnapshot) {
        self.interval = interval
        self.settle = settle
        self.look = look
    }

    /// Polls until the task is cancelled, calling `changed` with the paths of each settled
    /// change since `baseline`.
    func run(from baseline: FolderSnapshot, _ changed: @Sendable ([String]) async -> Void) async {
        var last = baseline
        while !Task.isCancelled {
            await sleep(interval)
            var current = await look()
            guard current != last else { continue }
            var paths = Set(current.changes(since: last))
            let started = now()
            while !Task.isCancelled, now().timeIntervalSince(started) < longestWait {
                await sleep(settle)
                let later = await look()
                if later == current { break }
                paths.formUnion(later.changes(since: current))
                current = later
            }
            last = current
            guard !Task.isCancelled else { return }
            await changed(paths.sorted())
        }
    }

    static func nanoseconds(_ seconds: TimeInterval) -> UInt64 {
        UInt64(max(0, seconds) * 1_000_000_000)
    }
}

/// Holds the watcher's looks while someone changes several files that belong together, so it
/// sees them as one change. Open unless paused.
final class WatchPause: @unchecked Sendable {
    private let lock = NSLock()
    private var paused = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func pause() { lock.withLock { paused = true } }

    func resume() {
        let resumed = lock.withLock {
            paused = false
            defer { waiting = [] }
            return waiting
        }
        resumed.forEach { $0.resume() }
    }

    /// Returns at once when open, else when resumed.
    func whileOpen() async {
        await withCheckedContinuation { continuation in
            let open = lock.withLock {
                if paused { waiting.append(continuation) }
                return !paused
            }
            if open { continuation.resume() }
        }
    }
}
