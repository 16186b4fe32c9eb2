import Foundation

/// A listing of photos (an album, a place, a region, a person, a place's favorites) cut into
/// pages where its photos say, not every `pageSize` photos from its top: a photo added, taken
/// away or come back changes the page it is on, not every page after it, and `folio publish`
/// uploads that page again, not the whole listing.
///
/// Cut from the oldest photo on: a page ends after a photo whose identifier's hash falls on a
/// break (one in `pageSize / 2` of them), once the page holds half a page; it always ends at
/// twice a page. So a page holds from half a page to twice one, `pageSize` on average, and where
/// one ends depends on the photos near it, not on how many come before it. The newest photos,
/// after the last break, join the page before them while they are fewer than half a page.
///
/// The first page shown keeps the listing's own address; every other is named for the day of its
/// oldest photo (`2019-05-12`, then `2019-05-12-2` for a second page starting that day), which
/// stays its name as long as that photo is there.
package struct ListingPages: Sendable, Equatable {
    /// Where each page starts, in the order shown (index into the listing), the first at 0.
    private var starts: [Int]
    /// Each page's name, in the order shown; nil for the first.
    private(set) var names: [String?]
    /// Each page past the first by its name: every page of a listing is looked up by name.
    private var byName: [String: Int] = [:]
    /// How many photos the listing holds.
    let count: Int

    /// Pages for `count` photos shown newest first (`newestFirst`) or oldest first; `breaks(i)`
    /// says whether the photo shown `i`th ends a page once it may, `day(i)` is when it was taken.
    init(count: Int, pageSize: Int, newestFirst: Bool, breaks: (Int) -> Bool, day: (Int) -> Date) {
        self.count = count
        var runs = Self.runs(count: count, pageSize: pageSize) { breaks(newestFirst ? count - 1 - $0 : $0) }
        if runs.isEmpty { runs = [0] }
        // Each run's oldest photo, in the order shown, names its page.
        var oldest: [Int] = []
        var at = 0
        for run in runs {
            oldest.append(newestFirst ? count - 1 - at : at)
            at += run
        }
        var seen: [String: Int] = [:]
        var runNames = oldest.map { shown -> String in
            let name = count == 0 ? "" : Self.dayName(day(shown))
            seen[name, default: 0] += 1
            return seen[name]! == 1 ? name : "\(name)-\(seen[name]!)"
        }
        if newestFirst {
            runs.reverse()
            runNames.reverse()
        }
        var starts: [Int] = []
        var start = 0
        for run in runs {
            starts.append(start)
            start += run
        }
        self.starts = starts
        names = [nil] + runNames.dropFirst().map { $0 }
        for (page, name) in names.enumerated() {
            if let name { byName[name] = page }
        }
    }

    /// The lengths of the pages of `count` photos in the order they were taken, oldest first:
    /// `breaks(i)` says whether the `i`th oldest ends a page once it may. Empty for no photos.
    static func runs(count: Int, pageSize: Int, breaks: (Int) -> Bool) -> [Int] {
        let least = max(1, pageSize / 2), most = max(least, pageSize * 2)
        var runs: [Int] = []
        var length = 0
        for taken in 0..<count {
            length += 1
            if length >= most || (length >= least && breaks(taken)) {
                runs.append(length)
                length = 0
            }
        }
        if length > 0 {
            if length < least, !runs.isEmpty { runs[runs.count - 1] += length } else { runs.append(length) }
        }
        return runs
    }

    var pageCount: Int { starts.count }

    /// The photos of page `page` (from 0, in the order shown), as a range of the listing.
    func range(_ page: Int) -> Range<Int> {
        starts[page]..<(page + 1 < starts.count ? starts[page + 1] : count)
    }

    /// The page (from 0) named `name`, nil for the first; nil when the listing has none of that name.
    func page(named name: String?) -> Int? {
        guard let name else { return 0 }
        return byName[name]
    }

    /// The page (from 0) showing the listing's `index`th photo.
    func page(showing index: Int) -> Int {
        var low = 0, high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= index { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// "2019-05-12", in UTC as pages show dates.
    private static func dayName(_ date: Date) -> String {
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(parts.year ?? 0)-\(two(parts.month ?? 1))-\(two(parts.day ?? 1))"
    }

    private static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    /// Whether a photo ends a page once it may: its identity (the hash of its identifier) falls on
    /// one of every `pageSize / 2` values. The same photo breaks in every listing it is in.
    static func breaks(_ identity: UInt64, pageSize: Int) -> Bool {
        identity % UInt64(max(1, pageSize - max(1, pageSize / 2))) == 0
    }
}
