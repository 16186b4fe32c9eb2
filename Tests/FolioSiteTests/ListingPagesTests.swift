import FolioCore
@testable import FolioSite
import Foundation
import XCTest

/// A listing's pages are cut where its photos say: a page holds half a page to twice one, and a
/// photo added anywhere changes the page it lands on, not the pages after it.
final class ListingPagesTests: XCTestCase {
    let day0 = Date(timeIntervalSince1970: 1_500_000_000)

    /// A listing of photos named by number, taken a day apart in the order of `taken`.
    struct Listing {
        var photos: [Int]
        let pageSize: Int
        let newestFirst: Bool
        let day0: Date

        /// The photos in the order shown.
        var shown: [Int] { newestFirst ? photos.reversed() : photos }

        func pages() -> ListingPages {
            let shown = self.shown
            return ListingPages(count: shown.count, pageSize: pageSize, newestFirst: newestFirst,
                                breaks: { ListingPages.breaks(ContentHash.hash("photo-\(shown[$0])"), pageSize: pageSize) },
                                day: { day0.addingTimeInterval(Double(shown[$0]) * 3_600) })
        }

        /// Each page by its name (nil: the first), with its photos.
        func named() -> [String: [Int]] {
            let pages = pages()
            let shown = self.shown
            return Dictionary(uniqueKeysWithValues: (0..<pages.pageCount).map { (pages.names[$0] ?? "", Array(shown[pages.range($0)])) })
        }
    }

    func testPagesHoldHalfAPageToTwiceOneAndEveryPhotoOnce() {
        for newestFirst in [true, false] {
            let listing = Listing(photos: Array(0..<5_000), pageSize: 40, newestFirst: newestFirst, day0: day0)
            let pages = listing.pages()
            let sizes = (0..<pages.pageCount).map { pages.range($0).count }
            XCTAssertEqual(sizes.reduce(0, +), 5_000)
            XCTAssertEqual((0..<pages.pageCount).flatMap { Array(pages.range($0)) }, Array(0..<5_000))
            XCTAssertGreaterThanOrEqual(sizes.min()!, 20)
            XCTAssertLessThan(sizes.max()!, 80 + 20)
            let mean = Double(sizes.reduce(0, +)) / Double(sizes.count)
            XCTAssertEqual(mean, 40, accuracy: 8, "pages hold a page on average")
            XCTAssertNil(pages.names[0])
            XCTAssertEqual(Set(pages.names.compactMap { $0 }).count, pages.pageCount - 1, "every page past the first has a name of its own")
            for (page, name) in pages.names.enumerated() {
                XCTAssertEqual(pages.page(named: name), page)
            }
            for index in stride(from: 0, to: 5_000, by: 37) {
                XCTAssertTrue(pages.range(pages.page(showing: index)).contains(index))
            }
        }
    }

    func testAPageIsNamedForTheDayOfItsOldestPhoto() {
        let listing = Listing(photos: Array(0..<400), pageSize: 20, newestFirst: true, day0: day0)
        let pages = listing.pages()
        let shown = listing.shown
        let day = DateFormatter()
        day.dateFormat = "yyyy-MM-dd"
        day.timeZone = TimeZone(identifier: "UTC")
        day.locale = Locale(identifier: "en_US_POSIX")
        for page in 1..<pages.pageCount {
            let oldest = shown[pages.range(page).last!]
            let name = pages.names[page]!
            XCTAssertTrue(name.hasPrefix(day.string(from: day0.addingTimeInterval(Double(oldest) * 3_600))), name)
        }
        XCTAssertTrue(pages.names.contains { $0?.hasSuffix("-2") == true }, "two pages starting on one day are told apart")
    }

    func testAFewPhotosAreOnePage() {
        for count in [0, 1, 19, 39] {
            let pages = Listing(photos: Array(0..<count), pageSize: 40, newestFirst: true, day0: day0).pages()
            XCTAssertEqual(pages.pageCount, 1, "\(count) photos")
            XCTAssertEqual(pages.range(0), 0..<count)
        }
    }

    /// What a photo joining a listing changes: how many of its pages (by name) show other photos
    /// than before, or are new.
    func changedPages(_ before: Listing, _ after: Listing) -> Int {
        let (old, new) = (before.named(), after.named())
        return new.filter { old[$0.key] != $0.value }.count + old.keys.filter { new[$0] == nil }.count
    }

    func testANewestPhotoChangesTheFirstPageAndAtMostTheOneItHandsPhotosTo() {
        for newestFirst in [true, false] {
            var listing = Listing(photos: Array(0..<1_000), pageSize: 30, newestFirst: newestFirst, day0: day0)
            for next in 1_000..<1_300 {
                let before = listing
                listing.photos.append(next)
                XCTAssertLessThanOrEqual(changedPages(before, listing), 2, "photo \(next)")
            }
        }
    }

    func testAPhotoComingBackInTheMiddleChangesAFewPagesNotThoseAfterIt() {
        var listing = Listing(photos: Array(0..<3_000), pageSize: 30, newestFirst: true, day0: day0)
        var changes: [Int] = []
        for taken in stride(from: 11, to: 3_000, by: 23) {
            let away = listing.photos.remove(at: taken)
            let without = listing
            listing.photos.insert(away, at: taken)
            changes.append(changedPages(without, listing))
        }
        let pages = listing.pages().pageCount
        XCTAssertGreaterThan(pages, 60)
        // The page it lands on, and the first page when it is among the newest; a page boundary
        // moved by the photo now and then changes a neighbour or two.
        XCTAssertLessThanOrEqual(changes.max()!, 4, "\(changes)")
        XCTAssertLessThan(Double(changes.reduce(0, +)) / Double(changes.count), 1.5, "\(changes)")
    }
}
