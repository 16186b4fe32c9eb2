import Foundation

/// The benchmark's table, printed at the end.
struct Report {
    private var lines: [String] = []

    mutating func row(_ label: String, _ seconds: Double, peak: Double? = nil, note: String? = nil) {
        var line = label.padding(toLength: 58, withPad: " ", startingAt: 0) + String(format: "%8.2f s", seconds)
        if let peak { line += String(format: "  peak %5.0f MB", peak) }
        if let note { line += "  (\(note))" }
        lines.append(line)
    }

    mutating func note(_ text: String) {
        lines.append(text)
    }

    /// Where a cold build's time goes: wall time per step, CPU time per imaging phase.
    mutating func breakdown(_ timings: [String: Double]) {
        let steps = timings.filter { !$0.key.hasPrefix("cpu-") && $0.key != "peak-rss-mb" }.sorted { $0.value > $1.value }
            .map { String(format: "%@ %.2f s", $0.key, $0.value) }
        let cpu = timings.filter { $0.key.hasPrefix("cpu-") }
        let imagingTotal = cpu.values.reduce(0, +)
        let phases = cpu.sorted { $0.value > $1.value }.map { entry in
            String(format: "%@ %.1f s (%.0f%%)", String(entry.key.dropFirst(4)), entry.value,
                   imagingTotal > 0 ? 100 * entry.value / imagingTotal : 0)
        }
        lines.append("    steps (wall): " + steps.joined(separator: ", "))
        lines.append("    image work (CPU, all cores): " + phases.joined(separator: ", "))
    }

    func print() {
        Swift.print(lines.joined(separator: "\n"))
    }
}
