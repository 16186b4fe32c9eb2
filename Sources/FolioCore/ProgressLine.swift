import Foundation

/// One self-rewriting line on a terminal: counts, rate and time left. Silent otherwise.
package final class ProgressLine: @unchecked Sendable {
    private let label: String
    private let total: Int
    /// What the counts count, when they are not things ("MB").
    private let unit: String
    private let enabled: Bool
    private let started = Date()
    private var lastDrawn = Date.distantPast
    private let lock = NSLock()

    package init(_ label: String, total: Int, unit: String = "", enabled: Bool) {
        self.label = label
        self.total = total
        self.unit = unit.isEmpty ? "" : " " + unit
        self.enabled = enabled && total > 0
    }

    package func update(_ done: Int) {
        guard enabled else { return }
        lock.lock(); defer { lock.unlock() }
        let now = Date()
        guard done == total || now.timeIntervalSince(lastDrawn) > 0.1 else { return }
        lastDrawn = now
        let elapsed = now.timeIntervalSince(started)
        let rate = elapsed > 0 ? Double(done) / elapsed : 0
        let left = rate > 0 ? Double(total - done) / rate : 0
        let line = String(format: "\r\u{1B}[2K  %@ %d/%d%@  %.1f%@/s  %@ left", label, done, total, unit, rate, unit, Self.duration(left))
        // A line that cannot be drawn is lost: the command finds a closed stream at its next line.
        Console.write(done == total ? line + "\r\u{1B}[2K" : line, to: .error)
    }

    /// Draws the line done, and clears it.
    package func finish() { update(total) }

    static func duration(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        return s >= 60 ? "\(s / 60)m\(String(format: "%02d", s % 60))s" : "\(s)s"
    }
}
