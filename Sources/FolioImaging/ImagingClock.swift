import Foundation

/// Where image work spends its time, summed over every task: decode, resample, encode.
/// Shared by the tasks of one build; for reports and benchmarks.
public final class ImagingClock: @unchecked Sendable {
    public enum Phase: String, CaseIterable, Sendable { case decode, resample, encode }

    private let lock = NSLock()
    private var totals: [Phase: UInt64] = [:]

    public init() {}

    /// Runs `work`, adding its duration to `phase`.
    func time<T>(_ phase: Phase, _ work: () throws -> T) rethrows -> T {
        let start = DispatchTime.now().uptimeNanoseconds
        defer {
            let elapsed = DispatchTime.now().uptimeNanoseconds - start
            lock.lock()
            totals[phase, default: 0] += elapsed
            lock.unlock()
        }
        return try work()
    }

    /// Seconds spent in each phase so far, across all tasks (so it can exceed wall time).
    public var seconds: [Phase: Double] {
        lock.lock()
        defer { lock.unlock() }
        return totals.mapValues { Double($0) / 1e9 }
    }
}

extension Optional where Wrapped == ImagingClock {
    func time<T>(_ phase: ImagingClock.Phase, _ work: () throws -> T) rethrows -> T {
        switch self {
        case .some(let clock): return try clock.time(phase, work)
        case .none: return try work()
        }
    }
}
