import Foundation

/// Folio's own output: text for a person on standard output or standard error. A write that
/// fails never traps (`FileHandle.write(_:)` does on Linux); the caller decides what it means.
public enum Console {
    public enum Stream: Sendable {
        case output, error

        var descriptor: Int32 { self == .output ? STDOUT_FILENO : STDERR_FILENO }
    }

    public enum Outcome: Sendable, Equatable {
        case written
        /// Nothing reads the stream any more (EPIPE: `folio build | head -1`).
        case readerGone
        /// The write failed otherwise (a full disk under `2> build.log`, an I/O error): with errno.
        case failed(Int32)
    }

    /// Writes all of `text`, as many calls as it takes; stops at the first failure.
    @discardableResult
    public static func write(_ text: String, to stream: Stream) -> Outcome {
        var text = text
        return text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(stream.descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno == EPIPE ? .readerGone : .failed(errno)
                }
                offset += written
            }
            return .written
        }
    }
}
