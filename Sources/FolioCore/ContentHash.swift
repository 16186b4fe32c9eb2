import Foundation

/// XXH64, a fast 64-bit non-cryptographic hash: checksums of photo files (to notice edits and
/// to name outputs by content) at memory speed, with no dependency for it.
public enum ContentHash {
    private static let p1: UInt64 = 0x9E37_79B1_85EB_CA87
    private static let p2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private static let p3: UInt64 = 0x1656_67B1_9E37_79F9
    private static let p4: UInt64 = 0x85EB_CA77_C2B2_AE63
    private static let p5: UInt64 = 0x27D4_EB2F_1656_67C5

    public static func hex(_ data: Data, seed: UInt64 = 0) -> String {
        hexText(hash(data, seed: seed))
    }

    public static func hex(_ text: String, seed: UInt64 = 0) -> String {
        hexText(hash(text, seed: seed))
    }

    /// The hash of `text`'s UTF-8 bytes.
    public static func hash(_ text: String, seed: UInt64 = 0) -> UInt64 {
        var text = text
        return text.withUTF8 { hash(UnsafeRawBufferPointer($0), seed: seed) }
    }

    /// Sixteen lower-case hex digits, as `%016llx` writes them: asked of every photo and page of
    /// every build, where `String(format:)` costs more than the hash.
    package static func hexText(_ value: UInt64) -> String {
        String(unsafeUninitializedCapacity: 16) { buffer in
            for index in 0..<16 { buffer[index] = hexDigit(value, index) }
            return 16
        }
    }

    /// Appends the digits `hexText` writes, without making the text.
    package static func appendHex(_ value: UInt64, to bytes: inout [UInt8]) {
        for index in 0..<16 { bytes.append(hexDigit(value, index)) }
    }

    /// The `index`th of the sixteen hex digits of `value`, the most significant first.
    @inline(__always) private static func hexDigit(_ value: UInt64, _ index: Int) -> UInt8 {
        let digit = UInt8((value >> UInt64(60 - 4 * index)) & 0xf)
        return digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10
    }

    /// A hash of every value `value` encodes (`ValueDigest`): a fingerprint that includes a
    /// property added to the value without anyone listing it.
    public static func hex(encoding value: some Encodable) -> String {
        hexText(ValueDigest.of(value))
    }

    public static func hash(_ data: Data, seed: UInt64 = 0) -> UInt64 {
        data.withUnsafeBytes { hash($0, seed: seed) }
    }

    @inline(__always) private static func rotl(_ x: UInt64, _ r: UInt64) -> UInt64 { (x << r) | (x >> (64 - r)) }

    @inline(__always) private static func round(_ acc: UInt64, _ input: UInt64) -> UInt64 {
        rotl(acc &+ input &* p2, 31) &* p1
    }

    @inline(__always) private static func merge(_ acc: UInt64, _ value: UInt64) -> UInt64 {
        (acc ^ round(0, value)) &* p1 &+ p4
    }

    public static func hash(_ bytes: UnsafeRawBufferPointer, seed: UInt64 = 0) -> UInt64 {
        let count = bytes.count
        var offset = 0
        var h: UInt64
        if count >= 32 {
            var lanes = Lanes(seed: seed)
            while offset + 32 <= count {
                lanes.add(bytes, at: offset)
                offset += 32
            }
            h = lanes.merged
        } else {
            h = seed &+ p5
        }
        return finish(h &+ UInt64(count), UnsafeRawBufferPointer(rebasing: bytes[offset...]))
    }

    /// The four accumulators of 32-byte stripes.
    private struct Lanes {
        var v1, v2, v3, v4: UInt64

        init(seed: UInt64) {
            (v1, v2, v3, v4) = (seed &+ p1 &+ p2, seed &+ p2, seed, seed &- p1)
        }

        @inline(__always) mutating func add(_ bytes: UnsafeRawBufferPointer, at offset: Int) {
            @inline(__always) func word64(_ at: Int) -> UInt64 { UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: at, as: UInt64.self)) }
            v1 = round(v1, word64(offset))
            v2 = round(v2, word64(offset + 8))
            v3 = round(v3, word64(offset + 16))
            v4 = round(v4, word64(offset + 24))
        }

        var merged: UInt64 {
            var h = rotl(v1, 1) &+ rotl(v2, 7) &+ rotl(v3, 12) &+ rotl(v4, 18)
            h = merge(h, v1); h = merge(h, v2); h = merge(h, v3); h = merge(h, v4)
            return h
        }
    }

    /// The last bytes (fewer than 32) into `h`, then the avalanche.
    private static func finish(_ h: UInt64, _ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var h = h
        let count = bytes.count
        var offset = 0
        while offset + 8 <= count {
            let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            h = rotl(h ^ round(0, word), 27) &* p1 &+ p4
            offset += 8
        }
        if offset + 4 <= count {
            let word = UInt64(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
            h = rotl(h ^ (word &* p1), 23) &* p2 &+ p3
            offset += 4
        }
        while offset < count {
            h = rotl(h ^ (UInt64(bytes[offset]) &* p5), 11) &* p1
            offset += 1
        }
        h ^= h >> 33; h = h &* p2
        h ^= h >> 29; h = h &* p3
        h ^= h >> 32
        return h
    }

    /// The hash of bytes given a piece at a time: the very number `hash` gives for them all at
    /// once (a file written as it is made is hashed as it goes, never held whole).
    package struct Stream {
        private let seed: UInt64
        private var lanes: Lanes
        /// The bytes after the last whole stripe: fewer than 32.
        private var rest: [UInt8] = []
        private var count = 0

        package init(seed: UInt64 = 0) {
            self.seed = seed
            lanes = Lanes(seed: seed)
            rest.reserveCapacity(32)
        }

        package mutating func add(_ bytes: UnsafeRawBufferPointer) {
            count += bytes.count
            var offset = 0
            if !rest.isEmpty {
                offset = min(32 - rest.count, bytes.count)
                rest.append(contentsOf: bytes[0..<offset])
                guard rest.count == 32 else { return }
                rest.withUnsafeBytes { lanes.add($0, at: 0) }
                rest.removeAll(keepingCapacity: true)
            }
            while offset + 32 <= bytes.count {
                lanes.add(bytes, at: offset)
                offset += 32
            }
            rest.append(contentsOf: bytes[offset...])
        }

        package var value: UInt64 {
            let h = count >= 32 ? lanes.merged : seed &+ p5
            return rest.withUnsafeBytes { ContentHash.finish(h &+ UInt64(count), $0) }
        }
    }
}
