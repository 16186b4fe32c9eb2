import CSystem
import Foundation

/// Asks the kernel for files' bytes before a step reads them, so the cores do not wait on a disk
/// kept busy with one or two requests at a time. Threads of its own (blocking in `open`, never
/// the tasks' cores) go through the files in the order they will be read, at most `window` files
/// and `bytes` bytes ahead of the readers, so a library larger than the memory never pushes out
/// of the cache what is about to be read.
public final class ReadAhead: @unchecked Sendable {
    /// Relative to `root` when there is one: the strings the caller holds, shared, not a joined
    /// path per file made up front.
    private let paths: [String]
    private let root: String?
    /// `ends[i]`: the bytes of files 0...i together.
    private let ends: [Int]
    private let window: Int
    private let bytes: Int
    private let condition = NSCondition()
    private var next = 0
    private var taken = 0
    private var stopped = false
    /// Threads waiting for the readers to catch up.
    private var waiting = 0

    /// Asks the kernel for one file's bytes (tests watch what is asked instead).
    private let ask: @Sendable (String) -> Void

    /// Starts reading ahead of `files` (paths, under `root` when given, and their sizes), in
    /// order, on `threads` threads.
    init(_ files: [(path: String, size: Int)], under root: String? = nil, threads: Int = 8, window: Int = 256, bytes: Int = 256 << 20,
         ask: @escaping @Sendable (String) -> Void = { _ = folio_read_ahead($0) }) {
        self.ask = ask
        self.root = root
        paths = files.map(\.path)
        var total = 0
        ends = files.map { total += max(0, $0.size); return total }
        self.window = window
        self.bytes = bytes
        guard !files.isEmpty else { return }
        for _ in 0..<max(1, min(threads, files.count)) {
            let thread = Thread { [self] in work() }
            thread.name = "folio.read-ahead"
            thread.start()
        }
    }

    /// The readers have taken the first `count` files: those ahead of them may be asked for.
    package func take(_ count: Int) {
        condition.withLock {
            guard count > taken else { return }
            taken = count
            wakeIfRoom()
        }
    }

    /// No more is asked for; files already asked for still arrive. The threads end soon after;
    /// until then they hold this, so whoever starts it stops it.
    package func stop() {
        condition.withLock {
            stopped = true
            condition.broadcast()
        }
    }

    /// Whether file `index` is within both bounds of what the readers have taken.
    private func isWithinReach(_ index: Int) -> Bool {
        guard index - taken < window else { return false }
        let before = taken == 0 ? 0 : ends[taken - 1]
        // The first file ahead is always asked for, however large.
        return index == taken || ends[index] - before <= bytes
    }

    /// Wakes the waiting threads once the readers have freed a quarter of the room ahead (or
    /// caught up): the threads then go on in a batch, not one wake-up for each file taken.
    private func wakeIfRoom() {
        let ahead = max(next, taken)
        guard waiting > 0, ahead < paths.count else { return }
        let before = taken == 0 ? 0 : ends[taken - 1]
        if ahead == taken || (ahead - taken <= window - window / 4 && ends[ahead] - before <= bytes - bytes / 4) {
            condition.broadcast()
        }
    }

    private func work() {
        while true {
            let index: Int? = condition.withLock {
                // A file the readers have already passed is theirs: skip to where they are.
                while !stopped, max(next, taken) < paths.count, !isWithinReach(max(next, taken)) {
                    waiting += 1
                    condition.wait()
                    waiting -= 1
                }
                next = max(next, taken)
                guard !stopped, next < paths.count else { return nil }
                defer { next += 1 }
                return next
            }
            guard let index else { return }
            ask(root.map { $0 + "/" + paths[index] } ?? paths[index])
        }
    }
}
