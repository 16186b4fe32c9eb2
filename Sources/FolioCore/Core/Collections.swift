import Foundation

extension Array {
    /// Consecutive slices of at most `size` elements: SQL statements take a bounded number of
    /// arguments, and parallel work goes in batches.
    func chunked(_ size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}

extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }

    /// Trimmed, or nil when nothing is left.
    public var nilIfBlank: String? {
        let trimmed = trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }
}
