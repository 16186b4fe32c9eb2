import ArgumentParser
import FolioImaging
import FolioModel
import FolioTestSupport
import Foundation

/// The photos a benchmark runs on, made once and kept between runs.
struct Corpus {
    let root: URL
    let photos: Int
    let small: Bool
    /// The percentage of photos tagged with a wide-gamut profile.
    var wideGamut = 0

    var content: URL { root.appendingPathComponent("site/content") }
    var site: URL { root.appendingPathComponent("site") }

    static let places: [(String, String, Double, Double)] = [
        ("Palo Alto, California, United States", "California", 37.44, -122.14),
        ("San Francisco, California, United States", "California", 37.77, -122.42),
        ("Seattle, Washington, United States", "Washington", 47.61, -122.33),
        ("Paris, Île-de-France, France", "Île-de-France", 48.86, 2.35),
        ("Kyoto, Kyoto Prefecture, Japan", "Kyoto Prefecture", 35.01, 135.77),
        ("Sydney, New South Wales, Australia", "New South Wales", -33.87, 151.21),
        ("Edinburgh, Scotland, United Kingdom", "Scotland", 55.95, -3.19),
        ("Reykjavík, Capital Region, Iceland", "Capital Region", 64.15, -21.94),
    ]
    static let people = ["Josh", "Al", "Maya", "Kenji", "Sofia", "Ingrid", "Omar", "Lena"]

    func describe() -> String {
        (small ? "800x600" : "2/3 at 4000x3000, 1/3 at 6000x4000, quality 90, with EXIF")
            + (wideGamut > 0 ? ", \(wideGamutCount) tagged Adobe RGB or Display P3" : "")
    }

    /// The profile photo `index` carries, if any: spread over the corpus (37 is prime to 100),
    /// Adobe RGB and Display P3 taking turns.
    func profile(_ index: Int) -> Data? {
        guard (index * 37) % 100 < wideGamut else { return nil }
        return index % 2 == 0 ? ImageProcessor.adobeRGBProfile : ImageProcessor.displayP3Profile
    }

    var wideGamutCount: Int { (0..<photos).filter { profile($0) != nil }.count }

    /// The size and EXIF of photo `index`.
    func sample(_ index: Int, seed: UInt64? = nil) -> SamplePhoto {
        let large = !small && index % 3 == 2
        var photo = SamplePhoto(width: small ? 800 : (large ? 6000 : 4000), height: small ? 600 : (large ? 4000 : 3000),
                                seed: seed ?? UInt64(index + 1) &* 2_654_435_761)
        photo.quality = 90
        photo.orientation = index % 10 == 3 ? 6 : (index % 20 == 7 ? 8 : 1)
        photo.make = "Folio"
        photo.model = "Bench \(index % 4)"
        photo.taken = Date(timeIntervalSince1970: 1_600_000_000 + Double(index) * 3_600)
        if index % 4 == 0 {
            let place = Self.places[index % Self.places.count]
            (photo.latitude, photo.longitude) = (place.2, place.3)
        }
        return photo
    }

    func path(_ index: Int) -> String { "photos/\(index / 1000)/photo-\(index).jpg" }

    /// Makes what is missing; a corpus of the same shape is reused as it is.
    func make() throws {
        let marker = root.appendingPathComponent("corpus.done")
        if FileManager.default.fileExists(atPath: marker.path) { return }
        try? FileManager.default.removeItem(at: root)
        try FileManager.default.createDirectory(at: content, withIntermediateDirectories: true)
        let failures = Failures()
        DispatchQueue.concurrentPerform(iterations: photos) { index in
            do { try write(index) } catch { failures.add("\(path(index)): \(error)") }
        }
        if let first = failures.first { throw ValidationError("cannot make the corpus: \(first)") }
        var records: [[String: Any]] = []
        for index in 0..<photos {
            let place = Self.places[index % Self.places.count]
            var record: [String: Any] = ["path": path(index), "name": "Photo \(index)", "user": Self.people[index % Self.people.count]]
            if index % 5 != 4 { record["place"] = place.0; record["region"] = place.1 }
            if index % 7 == 0 { record["description"] = "A sample photo made for the benchmark, number \(index)." }
            if index % 25 == 0 { record["favorite"] = true }
            records.append(record)
        }
        let data = try PropertyListSerialization.data(fromPropertyList: records, format: .binary, options: 0)
        try data.write(to: content.appendingPathComponent("catalog.plist"))
        try Data().write(to: marker)
    }

    func write(_ index: Int, seed: UInt64? = nil, into folder: URL? = nil) throws {
        let url = (folder ?? content).appendingPathComponent(path(index))
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let jpeg = try sample(index, seed: seed).jpeg()
        try (profile(index).map { ICCProfileEmbedding.jpeg(jpeg, profile: $0) } ?? jpeg).write(to: url)
    }

    /// Rewrites `count` photos of the site's `content` with new pixels, as an editor would.
    /// A new file, not the same one rewritten: the sites share the corpus's files as hard links.
    func touch(_ count: Int, round: Int, in content: URL) throws {
        let stride = max(1, photos / count)
        let indices = (0..<count).map { ($0 * stride + round * 7) % photos }
        let failures = Failures()
        // New pixels every time, even across benchmark runs: the same bytes again would be
        // noticed as unchanged and cost nothing.
        let salt = UInt64(Date().timeIntervalSince1970 * 1000)
        DispatchQueue.concurrentPerform(iterations: indices.count) { i in
            do {
                let url = content.appendingPathComponent(path(indices[i]))
                try FileManager.default.removeItem(at: url)
                try write(indices[i], seed: salt &+ UInt64(999_983 &* (round + 2) &+ indices[i]), into: content)
            } catch {
                failures.add("\(error)")
            }
        }
        if let first = failures.first { throw ValidationError("cannot touch the corpus: \(first)") }
    }
}

final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var messages: [String] = []
    func add(_ message: String) { lock.withLock { messages.append(message) } }
    var first: String? { lock.withLock { messages.first } }
}

