import Dispatch
import Foundation

/// Ctrl-C (SIGINT) or SIGTERM, turned from a process-killing signal into something a command
/// can wait for, so `folio serve` stops its server and watcher cleanly. A second Ctrl-C kills
/// the process the usual way, for when stopping takes too long.
public final class InterruptSignal: @unchecked Sendable {
    private let lock = NSLock()
    private var received: Int32?
    private var waiter: CheckedContinuation<Int32, Never>?
    private var sources: [DispatchSourceSignal] = []

    /// Starts catching the signals now, so one that arrives before `wait()` is not lost.
    public init(signals: [Int32] = [SIGINT, SIGTERM]) {
        for number in signals {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [weak self] in self?.fire(number, signals: signals) }
            source.resume()
            sources.append(source)
        }
    }

    private func fire(_ number: Int32, signals: [Int32]) {
        let waiter: CheckedContinuation<Int32, Never>? = lock.withLock {
            guard received == nil else { return nil }
            received = number
            defer { self.waiter = nil }
            return self.waiter
        }
        for number in signals { signal(number, SIG_DFL) }
        waiter?.resume(returning: number)
    }

    /// Returns the signal once one arrives.
    @discardableResult
    public func wait() async -> Int32 {
        await withCheckedContinuation { continuation in
            let now: Int32? = lock.withLock {
                if let received { return received }
                waiter = continuation
                return nil
            }
            if let now { continuation.resume(returning: now) }
        }
    }
}
