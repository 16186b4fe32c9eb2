import Foundation

/// Reads a build-state file that Folio wrote (`LedgerWriter`) from start to end, a buffer at a
/// time, hashing its bytes as they are taken: a large file (the page manifest, the search
/// postings) is never held whole beside what is made of it.
package final class LedgerStream {
    /// The file, or nil when `buffer` holds all there is (`init(bytes:)`).
    private let file: Int32?
    private var buffer: [UInt8]
    /// Where the next unread byte is in `buffer`, and how many of its bytes are the file's.
    private var at = 0
    private var filled = 0
    /// The hash of the bytes taken, up to `hashed` in `buffer` (never past `at`); the rest are
    /// hashed as a digest is asked for or the buffer moves on.
    private var hash = ContentHash.Stream()
    private var hashed = 0
    /// The bytes read before `buffer`'s, and whether the file is read to its end.
    private var before = 0
    private var ended = false
    /// What stopped a read (nil: none): the stream then ends there.
    package private(set) var failure: Int32?
    /// How many bytes the file has (as it was opened).
    package let size: Int

    /// The file at `path`; nil when it will not open.
    package init?(path: String, bufferSize: Int = 1 << 20) {
        let file = open(path, O_RDONLY | O_CLOEXEC)
        guard file >= 0 else { return nil }
        var info = stat()
        guard fstat(file, &info) == 0 else {
            close(file)
            return nil
        }
        self.file = file
        size = Int(info.st_size)
        buffer = [UInt8](repeating: 0, count: max(bufferSize, 1))
    }

    /// Bytes held already (a test's, an older file's): read the same way.
    package init(bytes: Data) {
        file = nil
        buffer = [UInt8](bytes)
        filled = buffer.count
        size = buffer.count
        ended = true
    }

    deinit {
        if let file { close(file) }
    }

    /// How many bytes have been read (taken by `line()` and `number()`).
    package var offset: Int { before + at }

    package var atEnd: Bool { !ensure(1) }

    /// The hash (`ContentHash`) of the whole file. What is left unread is read into the buffer
    /// and held there: asked once the file is read (a test asks early).
    package var digest: UInt64 {
        while !ended { refill() }
        var whole = hash
        buffer.withUnsafeBytes { whole.add(UnsafeRawBufferPointer(rebasing: $0[hashed..<filled])) }
        return whole.value
    }

    /// Whether the rest of the file is one line, "sum " and the hash (`ContentHash`) of every
    /// byte before it in sixteen hex digits, as `LedgerWriter.endWithSum()` ends a file: a file cut
    /// short, or with bytes changed anywhere, is not.
    package func endsWithSum() -> Bool {
        hashTaken()
        let sum = "sum " + ContentHash.hexText(hash.value)
        return line() == Substring(sum) && atEnd && failure == nil
    }

    /// Adds the bytes taken since the last time to `hash`.
    private func hashTaken() {
        buffer.withUnsafeBytes { hash.add(UnsafeRawBufferPointer(rebasing: $0[hashed..<at])) }
        hashed = at
    }

    /// The bytes up to the next line feed, which is passed over (the last line may have none);
    /// nil at the end.
    package func line() -> Substring? {
        line { Substring(decoding: $0, as: UTF8.self) }
    }

    /// The bytes of the next line, without its line feed, handed to `body`; nil at the end.
    package func line<T>(_ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T? {
        // How many bytes after `at` are known to hold no line feed: a refill moves them, not this.
        var looked = 0
        while true {
            if let end = buffer[(at + looked)..<filled].firstIndex(of: 0x0A) {
                defer { at = end + 1 }
                return try buffer.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[at..<end])) }
            }
            looked = filled - at
            if !refill() {
                guard filled > at else { return nil }
                defer { at = filled }
                return try buffer.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[at..<filled])) }
            }
        }
    }

    /// A 32-bit little-endian number; nil past the end.
    package func number() -> UInt32? {
        guard ensure(4) else { return nil }
        defer { at += 4 }
        return buffer.withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: at, as: UInt32.self)) }
    }

    /// Whether `count` bytes are there to read, reading more as needed.
    private func ensure(_ count: Int) -> Bool {
        while filled - at < count {
            guard refill() else { return false }
        }
        return true
    }

    /// Keeps the unread bytes, moved to the start, and reads more after them (the buffer grown
    /// for a line longer than it); false at the end of the file.
    @discardableResult
    private func refill() -> Bool {
        guard !ended, let file else { return false }
        let kept = filled - at
        if at > 0 {
            hashTaken()
            hashed = 0
            buffer.withUnsafeMutableBytes { bytes in
                _ = memmove(bytes.baseAddress!, bytes.baseAddress! + at, kept)
            }
            before += at
            at = 0
            filled = kept
        }
        if filled == buffer.count { buffer += [UInt8](repeating: 0, count: buffer.count) }
        let count = buffer.withUnsafeMutableBytes { bytes in
            read(file, bytes.baseAddress! + filled, bytes.count - filled)
        }
        guard count > 0 else {
            if count < 0 { failure = errno }
            ended = true
            return false
        }
        filled += count
        return true
    }
}
