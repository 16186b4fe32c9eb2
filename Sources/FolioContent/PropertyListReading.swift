import FolioCore
import Foundation

/// A property list's value (a catalog, a folder's `album.plist`), read so that no file can take
/// a parser deeper than `ReadingLimits.nesting` or make it build more than a file of its size
/// would: by Folio's own XML reader where it can, by Foundation's once the bytes are walked
/// (binary: `BinaryPlistCheck`) or scanned (text: `NestingScan`).
enum PropertyListReading {
    /// A step from a value to one inside it.
    enum Step: Equatable {
        case index(Int)
        case key(String)
    }

    /// Why a file gives no value, as a message says it: the record (an index in the top array)
    /// and the key (in that record, or in the top dictionary) where that is known.
    struct Refusal: Error, Equatable {
        var record: Int?
        var key: String?
        var reason: String

        init(_ reason: String) {
            self.reason = reason
        }

        /// A refusal of the whole file for what lies inside the values `steps` lead to.
        init(_ what: String, inside steps: [Step]) {
            if case .index(let index)? = steps.first { record = index }
            if case .key(let key)? = steps.dropFirst(record == nil ? 0 : 1).first { self.key = key }
            reason = (key.map { "in key '\($0)', " } ?? "") + what + "; nothing in the file is read"
        }

        static func tooDeep(at position: String, inside steps: [Step]) -> Refusal {
            Refusal("arrays and dictionaries nest more than \(ReadingLimits.nesting) deep (\(position))", inside: steps)
        }
    }

    static func read(_ data: Data) -> Result<Any, Refusal> {
        if let refusal = refusal(size: data.count) { return .failure(refusal) }
        if let refusal = BinaryPlistCheck.refusal(data) { return .failure(refusal) }
        if !data.starts(with: BinaryPlistCheck.magic) {
            switch XMLPlist.read(data) {
            case .value(let value): return .success(value)
            case .tooDeep(let position, let steps): return .failure(.tooDeep(at: "\(position)", inside: steps))
            case .unknown: break
            }
            if let position = NestingScan.propertyList(data) { return .failure(.tooDeep(at: "\(position)", inside: [])) }
        }
        do {
            return .success(try PropertyListSerialization.propertyList(from: data, options: [], format: nil))
        } catch {
            return .failure(Refusal("not a readable property list (\(explain(error)))"))
        }
    }

    /// A refusal of a file of `size` bytes, before it is read, when it is larger than Folio reads.
    static func refusal(size: Int) -> Refusal? {
        guard size > ReadingLimits.propertyListBytes else { return nil }
        return Refusal("a property list of \(size) bytes is larger than the \(ReadingLimits.megabytes(ReadingLimits.propertyListBytes)) Folio reads")
    }

    static func explain(_ error: Error) -> String {
        let ns = error as NSError
        if let debug = ns.userInfo["NSDebugDescription"] as? String { return debug }
        return ns.localizedDescription
    }
}
