import Foundation

/// How search sees text: lowercased, without accents, cut into words of letters and digits
/// (Chinese and Japanese into pairs of characters). The theme's script (`assets/search.js`: `fold`,
/// `words`, `queryWords`, `wordKeys`) does exactly the same to what the visitor types, so the two
/// must change together; the browser test `test_text_folding.py` holds them to it on hostile text.
public enum SearchText {
    /// Lowercase first, then decompose and drop the marks that are accents: those on a letter of
    /// the Latin, Greek, Cyrillic, Hebrew or Arabic script ("Éze" → "eze", a vowel point off a
    /// Hebrew or Arabic word), and those on no letter (a digit's keycap, an emoji's variation).
    /// On another script's letter a mark makes another letter (Japanese が is not か, a Devanagari
    /// vowel sign is part of its word) and stays, composed again. A final sigma is a sigma:
    /// browsers lowercase a word-final "Σ" to "ς" where Swift gives "σ".
    public static func fold(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        var kept = false
        var dropsMarks = true
        for scalar in text.lowercased().decomposedStringWithCanonicalMapping.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .spacingMark, .enclosingMark:
                if dropsMarks { continue }
                kept = true
                scalars.append(scalar)
            default:
                dropsMarks = !isLetter(scalar) || takesAccents(scalar)
                scalars.append(scalar == "\u{3C2}" ? "\u{3C3}" : scalar)
            }
        }
        let folded = String(scalars)
        return kept ? folded.precomposedStringWithCanonicalMapping : folded
    }

    /// Whether `scalar` is a letter of a script whose marks are accents or vowel points: Latin,
    /// Greek, Cyrillic, Hebrew, Arabic (the script's `accentScripts` is the same list).
    static func takesAccents(_ scalar: Unicode.Scalar) -> Bool {
        accentScripts.contains { $0.contains(scalar.value) }
    }

    static let accentScripts: [ClosedRange<UInt32>] = [
        0x0041...0x024F, 0x1E00...0x1EFF, 0x2C60...0x2C7F, 0xA720...0xA7FF, 0xAB30...0xAB6F,  // Latin
        0x0370...0x03FF, 0x1F00...0x1FFF,  // Greek
        0x0400...0x052F, 0x1C80...0x1C8F, 0x2DE0...0x2DFF, 0xA640...0xA69F,  // Cyrillic
        0x0590...0x05FF, 0xFB1D...0xFB4F,  // Hebrew
        0x0600...0x06FF, 0x0750...0x077F, 0x08A0...0x08FF, 0xFB50...0xFDFF, 0xFE70...0xFEFF,  // Arabic
    ]

    /// The words of `text`, folded: runs of letters, digits and the marks folding kept
    /// (`[\p{L}\p{N}\p{M}]+` in the script).
    public static func words(_ text: String) -> [String] {
        asciiWords(text) ?? scalarWords(text)
    }

    /// The words of any text, folded scalar by scalar. Chinese and Japanese are written without
    /// spaces, so a run of their characters is cut into every pair of neighbours and its last
    /// character ("金閣寺" → 金閣, 閣寺, 寺): a query's pairs, all found, find the words inside a
    /// title, and a lone character begins one of them wherever it stands.
    static func scalarWords(_ text: String) -> [String] {
        var words: [String] = []
        var current: [Unicode.Scalar] = []
        var inCJK = false
        func end() {
            guard !current.isEmpty else { return }
            if inCJK, current.count > 1 {
                for at in 0..<(current.count - 1) { words.append(String(String.UnicodeScalarView(current[at...(at + 1)]))) }
                words.append(String(current.last!))
            } else {
                words.append(String(String.UnicodeScalarView(current)))
            }
            current.removeAll(keepingCapacity: true)
        }
        for scalar in fold(text).unicodeScalars {
            guard isWordScalar(scalar) else {
                end()
                inCJK = false
                continue
            }
            // A mark goes with the letter before it.
            let cjk = isMark(scalar) ? inCJK : isCJK(scalar)
            if cjk != inCJK { end() }
            inCJK = cjk
            current.append(scalar)
        }
        end()
        return words
    }

    /// Han ideographs, kana and the marks written with them (々, ー): the scripts written without
    /// spaces between words (the script's `cjkScripts` is the same list).
    static func isCJK(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value >= 0x3005 && cjkScripts.contains { $0.contains(scalar.value) }
    }

    static let cjkScripts: [ClosedRange<UInt32>] = [
        0x3005...0x3007, 0x3040...0x30FF, 0x31F0...0x31FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF,
        0xFF66...0xFF9F, 0x20000...0x3FFFF,
    ]

    /// Whether `word` starts with such a character: its word file is filed under that character
    /// alone, and a lone one finds the words it begins.
    static func startsCJK(_ word: String) -> Bool { word.unicodeScalars.first.map(isCJK) ?? false }

    static func isMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return false
        }
    }

    /// The words of ASCII text, byte by byte: folding ASCII is lowercasing it (nothing in it
    /// decomposes or is a mark), and its word characters are its letters and digits. Most of a
    /// library's titles, places and names are ASCII, and a large library has millions of them.
    /// Nil for text that is not all ASCII.
    static func asciiWords(_ text: String) -> [String]? {
        var text = text
        return text.withUTF8 { bytes -> [String]? in
            var words: [String] = []
            var current: [UInt8] = []
            for byte in bytes {
                switch byte {
                case 0x80...: return nil
                case UInt8(ascii: "A")...UInt8(ascii: "Z"): current.append(byte + 32)
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): current.append(byte)
                default:
                    if !current.isEmpty {
                        words.append(String(decoding: current, as: UTF8.self))
                        current.removeAll(keepingCapacity: true)
                    }
                }
            }
            if !current.isEmpty { words.append(String(decoding: current, as: UTF8.self)) }
            return words
        }
    }

    /// A letter, a digit, or a mark folding kept (on a letter it belongs to).
    static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .decimalNumber, .letterNumber, .otherNumber, .nonspacingMark, .spacingMark, .enclosingMark:
            return true
        default:
            return false
        }
    }

    static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter: return true
        default: return false
        }
    }

    /// The shard a word is filed in: its first two characters (code points), or its only one; a
    /// Chinese or Japanese word (two characters at most) its first, so a lone character's words
    /// share a file.
    public static func shardKey(_ word: String) -> String {
        String(String.UnicodeScalarView(word.unicodeScalars.prefix(startsCJK(word) ? 1 : 2)))
    }

    /// The keys, among `keys` (those of `meta.js`), of the word files a query word needs: a lone
    /// character matches only itself (a Chinese or Japanese one, every word it begins); a longer
    /// word matches every word it begins, and those are in the files whose key begins it or that
    /// it begins (`SearchIndex.cut`). The script's `wordKeys` is the same.
    public static func wordKeys(for word: String, in keys: [String]) -> [String] {
        guard word.unicodeScalars.count > 1 || startsCJK(word) else { return keys.contains(word) ? [word] : [] }
        return keys.filter { key in
            (key.unicodeScalars.count > 1 || startsCJK(key))
                && (word.unicodeScalars.starts(with: key.unicodeScalars) || key.unicodeScalars.starts(with: word.unicodeScalars))
        }
    }

    /// The words a query looks for: its words once each; beside longer words, a lone letter is one
    /// being typed and is left out, but not a Chinese or Japanese character standing alone (the
    /// last of a longer run is in that run's last pair already). The script's `queryWords` is the same.
    public static func queryWords(_ query: String) -> [String] {
        var unique: [String] = []
        for word in words(query) where !unique.contains(word) { unique.append(word) }
        guard unique.contains(where: { $0.unicodeScalars.count > 1 }) else { return unique }
        var kept: [String] = []
        for (at, word) in unique.enumerated() {
            if word.unicodeScalars.count > 1 {
                kept.append(word)
            } else if startsCJK(word), at == 0 || unique[at - 1].unicodeScalars.count < 2
                        || unique[at - 1].unicodeScalars.last != word.unicodeScalars.first {
                kept.append(word)
            }
        }
        return kept
    }

    /// Whether the query word `word` finds the indexed word `token`: itself, or, for a word longer
    /// than a character (or a Chinese or Japanese character), every word it begins.
    public static func finds(_ word: String, _ token: String) -> Bool {
        token == word || ((word.unicodeScalars.count > 1 || startsCJK(word)) && token.unicodeScalars.starts(with: word.unicodeScalars))
    }

    /// A shard key as a file name: ASCII letters and digits as they are, anything else as
    /// "_" and six hex digits, so every key has one safe name.
    public static func fileName(forKey key: String) -> String {
        var name = ""
        for scalar in key.unicodeScalars {
            if scalar.isASCII, ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) {
                name.unicodeScalars.append(scalar)
            } else {
                let hex = String(scalar.value, radix: 16)
                name += "_" + String(repeating: "0", count: max(0, 6 - hex.count)) + hex
            }
        }
        return name
    }

    /// FNV-1a over the UTF-16 code units of `identifier`: the bucket of the identifier map it
    /// is in (the script computes the same with `Math.imul`).
    public static func bucket(_ identifier: String, of count: Int) -> Int {
        var hash: UInt32 = 2_166_136_261
        for unit in identifier.utf16 {
            hash ^= UInt32(unit)
            hash = hash &* 16_777_619
        }
        return Int(hash % UInt32(max(1, count)))
    }
}
