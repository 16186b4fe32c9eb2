import FolioCore
import Foundation

/// Each photo's number in the search index, and the photo files (shards) that hold their rows.
///
/// A number stays the photo's while the photos near it in time stay: a photo added, taken away
/// or come back renumbers the few photos of its shard and changes the word files of their words,
/// not the whole index, and `folio publish` uploads those files again, not every one.
///
/// The photos of each month (by when they were taken, in UTC) are cut into shards as a listing is
/// cut into pages (`ListingPages.runs`, `photosPerShard` photos on average), from the month's
/// oldest photo on. A number is then the month, the shard's place among the month's, and the
/// photo's place in its shard, oldest first, as bits of one number below 2³⁰:
/// `month << (shardBits + 6) | shard << 6 | slot`, so numbers go up with time (the newest photo
/// has the highest) and a shard is the number's top bits (`number / slots`, as the script finds
/// it). `shardBits` is as few as the site's busiest month needs: the fewer, the smaller the
/// differences between numbers that word files hold. When that month outgrows them, every photo
/// is numbered again, once; and a site whose busiest month has more shards than `maxShardBits`
/// hold is numbered as photos with nothing said of them (`init(count:)`).
package struct SearchNumbering: Sendable {
    static let slotBits = 6
    /// Rows a shard has room for: a run of photos (`ListingPages.runs`) is under two pages and
    /// a half.
    package static let slots = 1 << slotBits
    static let maxShardBits = 12
    static let monthBits = 12
    /// Every number is below it: a word file's `number * 2 + 1` is a positive 32-bit number,
    /// which the script reads with its bit operators.
    static let limit = 1 << (monthBits + maxShardBits + slotBits)
    /// The first month with numbers of its own; photos before it count as taken in it, as those
    /// after the last count as taken in the last.
    static let firstYear = 1900

    /// Each photo's number, by its position in the site's order.
    package let numbers: [Int32]
    /// The hash of the photos' identities in the site's order (`SiteDigest.order`): with
    /// `numbers`, which photo had which number.
    package let order: UInt64
    /// Each shard's number (`number / slots`) and the positions of its photos in the site's order,
    /// the shards from the newest photo's.
    package let shards: [(key: Int, positions: Range<Int>)]

    /// The numbers of `count` photos in the site's order (newest first): `date(i)` is when the
    /// photo at position `i` was taken, `identity(i)` the hash of its identifier; `order` the hash
    /// of those identities.
    init(count: Int, date: (Int) -> Date, identity: (Int) -> UInt64, order: UInt64) {
        var months = [UInt16](repeating: 0, count: count)
        var month = 0
        // Oldest first: the month of each photo found by walking the months' starts once.
        for position in stride(from: count - 1, through: 0, by: -1) {
            let time = date(position).timeIntervalSinceReferenceDate
            while month + 1 < Self.monthStarts.count, Self.monthStarts[month + 1] <= time { month += 1 }
            months[position] = UInt16(month)
        }
        // Each month's photos (positions `start..<end`, from the newest month) cut into runs,
        // each run's length, from the month's oldest.
        var cuts: [(start: Int, end: Int, runs: [Int])] = []
        var end = 0
        while end < count {
            let start = end
            while end < count, months[end] == months[start] { end += 1 }
            let runs = ListingPages.runs(count: end - start, pageSize: SearchIndex.photosPerShard) { [end] in
                ListingPages.breaks(identity(end - 1 - $0), pageSize: SearchIndex.photosPerShard)
            }
            cuts.append((start, end, runs))
        }
        let busiest = cuts.map(\.runs.count).max() ?? 0
        var shardBits = 0
        while busiest > 1 << shardBits { shardBits += 1 }
        guard shardBits <= Self.maxShardBits else {
            self.init(count: count, order: order)
            return
        }
        var numbers = [Int32](repeating: 0, count: count)
        var shards: [(key: Int, positions: Range<Int>)] = []
        shards.reserveCapacity(cuts.reduce(0) { $0 + $1.runs.count })
        for cut in cuts {
            // The month's shards from its oldest, each one's photos from its oldest.
            var upper = cut.end
            var monthShards: [(key: Int, positions: Range<Int>)] = []
            for (place, run) in cut.runs.enumerated() {
                let key = Int(months[cut.start]) << shardBits | place
                let positions = (upper - run)..<upper
                for (slot, position) in positions.reversed().enumerated() {
                    numbers[position] = Int32(key << Self.slotBits | slot)
                }
                monthShards.append((key, positions))
                upper -= run
            }
            shards += monthShards.reversed()
        }
        self.init(numbers: numbers, shards: shards, order: order)
    }

    private init(numbers: [Int32], shards: [(key: Int, positions: Range<Int>)], order: UInt64) {
        self.numbers = numbers
        self.shards = shards
        self.order = order
    }

    /// The numbers of `count` photos with nothing said of them: the oldest (the last in the
    /// site's order) first, `photosPerShard` to a shard, shard after shard from 0.
    init(count: Int, order: UInt64 = 0) {
        let size = SearchIndex.photosPerShard
        let numbers = (0..<count).map { position in
            let oldestFirst = count - 1 - position
            return Int32((oldestFirst / size) << Self.slotBits | oldestFirst % size)
        }
        let shards = stride(from: (count - 1) / size, through: 0, by: -1).map { key in
            (key: key, positions: max(0, count - (key + 1) * size)..<(count - key * size))
        }
        self.init(numbers: numbers, shards: count == 0 ? [] : shards, order: order)
    }

    var count: Int { numbers.count }

    /// The number of the photo at `position` in the site's order.
    package subscript(position: Int) -> Int { Int(numbers[position]) }

    /// The shard (its key) of the photo at `position`.
    package func shard(of position: Int) -> Int { Self.shard(ofNumber: self[position]) }

    /// The shard (its key) of a photo numbered `number`.
    static func shard(ofNumber number: Int) -> Int { number >> slotBits }

    /// When each month starts, from `firstYear` on, as `Date`'s reference time: counted in days
    /// of the proleptic Gregorian calendar in UTC, as `Calendar` counts them (a test holds it),
    /// not asked of `Calendar` month by month on every build.
    static let monthStarts: [Double] = (0..<(1 << monthBits)).map { month in
        let days = daysSince1970(year: firstYear + month / 12, month: month % 12 + 1)
        return Double(days) * 86_400 - Date.timeIntervalBetween1970AndReferenceDate
    }

    /// The days from 1 January 1970 to the first of `month` of `year` (H. Hinnant's
    /// `days_from_civil`: years counted from March, so the leap day ends one).
    static func daysSince1970(year: Int, month: Int) -> Int {
        let year = month <= 2 ? year - 1 : year
        let era = (year >= 0 ? year : year - 399) / 400
        let yearOfEra = year - era * 400
        let dayOfYear = (153 * ((month + 9) % 12) + 2) / 5
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
