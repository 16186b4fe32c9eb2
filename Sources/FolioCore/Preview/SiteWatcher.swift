import Foundation

/// Watches a site's inputs (content/, templates/, folio.json, a theme folder) by polling
/// snapshots, and reports a change once the files have settled: saving a file, or copying in a
/// batch of photos, is a burst of writes that should cost one build, not one per write.
struct SiteWatcher: Sendable {
    let roots: [URL]
    let excluded: [URL]
    /// How often the files are looked at while nothing happens.
    let interval: TimeInterval
    /// How long the files must stay unchanged before the change is reported.
    let settle: TimeInterval
    /// A burst longer than this is reported anyway, so a slow copy still shows progress.
    let longestWait: TimeInterval = 5

    /// Polls until the task is cancelled, calling `changed` with the paths of each settled
    /// change since `baseline`.
    func run(from baseline: FolderSnapshot, _ changed: @Sendable ([String]) async -> Void) async {
        var last = baseline
        while !Task.isCancelled {
            try? await Task.sleep(nanoseconds: Self.nanoseconds(interval))
            var now = FolderSnapshot.take(roots, excluding: excluded)
            guard now != last else { continue }
            var paths = Set(now.changes(since: last))
            let started = Date()
            while !Task.isCancelled, Date().timeIntervalSince(started) < longestWait {
                try? await Task.sleep(nanoseconds: Self.nanoseconds(settle))
                let later = FolderSnapshot.take(roots, excluding: excluded)
                if later == now { break }
                paths.formUnion(later.changes(since: now))
                now = later
            }
            last = now
            guard !Task.isCancelled else { return }
            await changed(paths.sorted())
        }
    }

    static func nanoseconds(_ seconds: TimeInterval) -> UInt64 {
        UInt64(max(0, seconds) * 1_000_000_000)
    }
}
