import FolioCore
import Foundation

/// The word files (`t-<key>.js`) made from the postings: the words filed under their groups,
/// cut at the index's budget, each a JSON object of the words' photos.
extension SearchPostings {
    /// The shard keys (`SearchText.shardKey`) of `words` (numbers): the groups of word files they are in.
    func groups(of words: Set<Int>) -> Set<String> {
        Set(words.map { SearchText.shardKey(self.words[$0]) })
    }

    /// The word files of the words filed under `groups` (shard keys), or of every word, each as
    /// its key and its value, `{"word":[…],…}`, sorted by key; `keys` then names every word file.
    mutating func wordFiles(under groups: Set<String>? = nil) -> [(key: String, value: [UInt8])] {
        var files: [(key: String, value: [UInt8])] = []
        wordFiles(under: groups) { files.append(($0, $1)) }
        return files
    }

    /// As `wordFiles(under:)`, each file handed to `each` as it is made, in the order of their
    /// keys. With `touched` (the words whose photos changed since the files in place were made,
    /// `replace`), a file under `groups` that holds no touched word, and held none that went,
    /// cut where it was cut then, is the file in place: it is not made, and its key is returned.
    /// A group holds every word of a kind (the "ph" of many "photo-…" file names), so one
    /// photo's edit would otherwise make all its files again to write one.
    @discardableResult
    mutating func wordFiles(under groups: Set<String>? = nil, touched: Set<Int>? = nil,
                            each: (_ key: String, _ value: [UInt8]) -> Void) -> [String] {
        // The words by their numbers, from which each one's size and entry are had, not looked
        // up again by their text.
        var filed: [Substring: [Int]] = [:]
        // A word's shard key as the text it starts with, no string made: most words are in a
        // file that is not made again.
        let only = groups.map { Set($0.map { Substring($0) }) }
        for number in words.indices where spans[number].count > 0 {
            let word = words[number]
            let end = word.unicodeScalars.index(word.startIndex, offsetBy: SearchText.startsCJK(word) ? 1 : 2, limitedBy: word.endIndex)
                ?? word.endIndex
            let group = Substring(word.unicodeScalars[..<end])
            if let only, !only.contains(group) { continue }
            filed[group, default: []].append(number)
        }
        // Each group sorted and cut, taken out of `filed` first; its words' texts held only
        // while it is cut, each file then a run of its numbers.
        var files: [(key: String, numbers: ArraySlice<Int>)] = []
        for group in Array(filed.keys) {
            let unsorted = filed.removeValue(forKey: group)!
            let texts = unsorted.map { words[$0] }
            let order = texts.indices.sorted { texts[$0] < texts[$1] }
            let numbers = order.map { unsorted[$0] }
            // A word past the budget is cut no further however far past: its size is counted to there.
            let sizes = numbers.map { entrySize($0, atMost: SearchIndex.wordFileBudget) + 1 }
            for file in SearchIndex.cut(String(group), words: order.map { texts[$0] }, sizes: sizes) {
                files.append((file.key, numbers[file.words.indices]))
            }
        }
        files.sort { $0.key < $1.key }
        let last = keys
        if let groups {
            keys = (keys.filter { !groups.contains(SearchText.shardKey($0)) } + files.map(\.key)).sorted()
        } else {
            keys = files.map(\.key)
        }
        // The files a touched word is in, or was in before its last photo went: the file of
        // the longest key it starts with.
        var dirty = Set<String>()
        if let touched {
            let made = Set(files.map(\.key))
            for word in touched.map({ words[$0] }) where only?.contains(Substring(SearchText.shardKey(word))) ?? true {
                let scalars = Array(word.unicodeScalars)
                for length in stride(from: scalars.count, through: 1, by: -1) {
                    let key = String(String.UnicodeScalarView(scalars[..<length]))
                    if made.contains(key) {
                        dirty.insert(key)
                        break
                    }
                }
            }
        }
        var kept: [String] = []
        for (at, file) in files.enumerated() {
            if touched != nil, !dirty.contains(file.key),
               Self.isCut(file.key, in: last) == (at + 1 < files.count && Self.isUnder(files[at + 1].key, file.key)) {
                kept.append(file.key)
                continue
            }
            var value: [UInt8] = [UInt8(ascii: "{")]
            value.reserveCapacity(file.numbers.reduce(2) { $0 + entrySize($1, atMost: SearchIndex.wordFileBudget) + 1 })
            for (at, number) in file.numbers.enumerated() {
                if at > 0 { value.append(UInt8(ascii: ",")) }
                appendEntry(number, to: &value)
            }
            value.append(UInt8(ascii: "}"))
            each(file.key, value)
        }
        return kept
    }

    /// Whether `key` was a file's key among `keys` (sorted) and cut further there: the words
    /// under it were in files of their own (keys that start with it, which follow it).
    /// Nil when it was no file's key.
    private static func isCut(_ key: String, in keys: [String]) -> Bool? {
        guard let at = keys.sortedIndex(of: key) else { return nil }
        return at + 1 < keys.count && isUnder(keys[at + 1], key)
    }

    /// Whether `key` is a longer key that starts with `prefix`, by its characters as a cut takes them.
    private static func isUnder(_ key: String, _ prefix: String) -> Bool {
        key.unicodeScalars.count > prefix.unicodeScalars.count && key.unicodeScalars.starts(with: prefix.unicodeScalars)
    }

    /// A word's entry in its file, `"word":[…]`: its photos, each as the difference from the one before.
    private func appendEntry(_ number: Int, to entry: inout [UInt8]) {
        entry.append(contentsOf: JSONText.string(words[number]).utf8)
        entry.append(contentsOf: ":[".utf8)
        let (values, range) = (self.values, spans[number].range)
        JSONText.appendList(range.lazy.map { Int(values[$0] - ($0 > range.lowerBound ? values[$0 - 1] : 0)) }, to: &entry)
        entry.append(UInt8(ascii: "]"))
    }

    /// The bytes `appendEntry` writes, counted without writing them; counted only until they
    /// pass `limit` (a word file's cut asks whether words pass its budget, and a word of most
    /// photos' entry is a hundred thousand numbers).
    private func entrySize(_ number: Int, atMost limit: Int) -> Int {
        var size = JSONText.string(words[number]).utf8.count + 3
        var previous: UInt32 = 0
        for (at, value) in values[spans[number].range].enumerated() {
            if at > 0 { size += 1 }
            var difference = value - previous
            repeat {
                size += 1
                difference /= 10
            } while difference > 0
            previous = value
            if size > limit { return size }
        }
        return size
    }
}
