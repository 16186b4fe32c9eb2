import Foundation

/// What a `Range` header asks of a file of a given size (RFC 9110 §14). Only single ranges are
/// honoured: what image viewers and video players send. A list of ranges, another unit or a
/// header that does not parse is ignored, and the whole file is sent, as the RFC allows.
enum ByteRange: Equatable {
    /// Send the whole file with 200.
    case whole
    /// Send these bytes with 206.
    case part(Range<Int>)
    /// Nothing in the file matches: 416.
    case unsatisfiable

    init(header: String?, size: Int) {
        guard let header else { self = .whole; return }
        let trimmed = header.trimmingCharacters(in: .whitespaces)
        guard trimmed.lowercased().hasPrefix("bytes=") else { self = .whole; return }
        let spec = trimmed.dropFirst("bytes=".count).trimmingCharacters(in: .whitespaces)
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { self = .whole; return }
        let first = spec[..<dash].trimmingCharacters(in: .whitespaces)
        let last = spec[spec.index(after: dash)...].trimmingCharacters(in: .whitespaces)
        guard first.allSatisfy(\.isASCIIDigit), last.allSatisfy(\.isASCIIDigit) else { self = .whole; return }

        if first.isEmpty {
            // bytes=-N: the last N bytes.
            guard let suffix = Int(last) else { self = .whole; return }
            guard suffix > 0, size > 0 else { self = .unsatisfiable; return }
            self = .part(max(0, size - suffix)..<size)
            return
        }
        guard let start = Int(first) else { self = .whole; return }
        let end: Int
        if last.isEmpty {
            end = size - 1
        } else {
            guard let value = Int(last) else { self = .whole; return }
            guard value >= start else { self = .whole; return }
            end = min(value, size - 1)
        }
        guard start < size else { self = .unsatisfiable; return }
        self = .part(start..<(end + 1))
    }
}

private extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
