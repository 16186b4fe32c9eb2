import Foundation

/// Trying again after a failure that may pass: waiting longer each time (exponential back-off,
/// capped), or as long as the server asked (`Retry-After`), a bounded number of times.
public struct RetryPolicy: Sendable {
    public enum Decision: Sendable {
        /// Give up: trying again cannot help (a bad key, a missing object).
        case fail
        /// Try again, after the server's own delay when it gave one.
        case retry(after: TimeInterval?)
    }

    /// Attempts in all, the first included.
    public var attempts: Int
    public var baseDelay: TimeInterval
    public var maximumDelay: TimeInterval
    /// How it waits: `Task.sleep`, or in tests a clock that only counts.
    public var sleep: @Sendable (TimeInterval) async throws -> Void

    public init(attempts: Int = 4, baseDelay: TimeInterval = 1, maximumDelay: TimeInterval = 30,
                sleep: @escaping @Sendable (TimeInterval) async throws -> Void = { try await Task.sleep(nanoseconds: UInt64($0 * 1e9)) }) {
        self.attempts = max(1, attempts)
        self.baseDelay = baseDelay
        self.maximumDelay = maximumDelay
        self.sleep = sleep
    }

    /// The wait before attempt `n + 1` after attempt `n` failed (n from 1): 1, 2, 4, 8… times the
    /// base, never more than the maximum; a server's own delay is taken when it is longer.
    public func delay(after attempt: Int, serverAsked: TimeInterval?) -> TimeInterval {
        let backOff = min(maximumDelay, baseDelay * pow(2, Double(max(0, attempt - 1))))
        return max(backOff, min(serverAsked ?? 0, maximumDelay * 4))
    }

    /// Runs `operation` (given the attempt's number, from 1) until it succeeds, `decide` says a
    /// failure is final, or the attempts run out; the last error is thrown.
    public func run<T: Sendable>(
        _ operation: (Int) async throws -> T,
        decide: (Error) -> Decision,
        retrying: (Error, TimeInterval) -> Void = { _, _ in }
    ) async throws -> T {
        var attempt = 1
        while true {
            do {
                return try await operation(attempt)
            } catch {
                guard attempt < attempts, case .retry(let asked) = decide(error), !Task.isCancelled else { throw error }
                let wait = delay(after: attempt, serverAsked: asked)
                retrying(error, wait)
                try await sleep(wait)
                attempt += 1
            }
        }
    }
}
