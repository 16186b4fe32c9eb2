import CSystem
import Foundation

/// Asks the kernel for files' bytes before a step reads them, so the cores do not wait on a disk
/// kept busy with one or two requests at a time. Threads of its own (blocking in `open`, never
/// the tasks' cores) go through the files in the order they will be read, at most `window` files
/// and `bytes` bytes ahead of the readers, so a library larger than the memory never pushes out
/// of the cache what is about to be read.
public final class ReadAhead: @unchecked Sendable {
    /// A file the readers will read, by its place in their order: its path (under `root` when
    /// there is one) and size; nil for one not to ask for (a video, read only as far as its
    /// headers). Asked of the caller's own list as the threads go, not copied from it up front.
    public typealias File = @Sendable (Int) -> (path: String, size: Int)?

    private let count: Int
    private let file: File
    private let root: String?
    private let window: Int
    private let bytes: Int
    private let condition = NSCondition()
    private var next = 0
    private var taken = 0
    /// The bytes of the files asked for that the readers have not taken: those from `taken` up
    /// to `next`.
    private var inFlight = 0
    private var stopped = false
    /// Threads waiting for the readers to catch up.
    private var waiting = 0

    /// Asks the kernel for one file's bytes (tests watch what is asked instead).
    private let ask: @Sendable (String) -> Void

    /// Starts reading ahead of the `count` files `file` gives, in order, on `threads` threads.
    init(count: Int, under root: String? = nil, threads: Int = 8, window: Int = 256, bytes: Int = 256 << 20,
         ask: @escaping @Sendable (String) -> Void = { _ = folio_read_ahead($0) }, file: @escaping File) {
        self.ask = ask
        self.root = root
        self.count = count
        self.file = file
        self.window = window
        self.bytes = bytes
        guard count > 0 else { return }
        for _ in 0..<max(1, min(threads, count)) {
            let thread = Thread { [self] in work() }
            thread.name = "folio.read-ahead"
            thread.start()
        }
    }

    private func size(at index: Int) -> Int { max(0, file(index)?.size ?? 0) }

    /// The readers have taken the first `done` files: those ahead of them may be asked for.
    package func take(_ done: Int) {
        condition.withLock {
            guard done > taken else { return }
            // The files asked for and now taken no longer count ahead (the readers may have
            // passed files the threads never reached).
            for index in taken..<max(taken, min(done, next)) { inFlight -= size(at: index) }
            taken = done
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
        // The first file ahead is always asked for, however large.
        return index == taken || inFlight + size(at: index) <= bytes
    }

    /// Wakes the waiting threads once the readers have freed a quarter of the room ahead (or
    /// caught up): the threads then go on in a batch, not one wake-up for each file taken.
    private func wakeIfRoom() {
        let ahead = max(next, taken)
        guard waiting > 0, ahead < count else { return }
        if ahead == taken || (ahead - taken <= window - window / 4 && inFlight + size(at: ahead) <= bytes - bytes / 4) {
            condition.broadcast()
        }
    }

    private func work() {
        while true {
            // The next file's path; nil inside for a file not to ask for, nil for none left.
            let asked: String?? = condition.withLock {
                // A file the readers have already passed is theirs: skip to where they are.
                while !stopped, max(next, taken) < count, !isWithinReach(max(next, taken)) {
                    waiting += 1
                    condition.wait()
                    waiting -= 1
                }
                next = max(next, taken)
                guard !stopped, next < count else { return nil }
                defer { next += 1 }
                let asked = file(next)
                inFlight += max(0, asked?.size ?? 0)
                return .some(asked?.path)
            }
            guard let asked else { return }
            if let path = asked { ask(root.map { $0 + "/" + path } ?? path) }
        }
    }
}
