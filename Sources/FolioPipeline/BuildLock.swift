import FolioCore
import Foundation

/// One build of a site at a time: an exclusive `flock` on `.folio-lock` in the site's folder,
/// held as long as this value lives. The kernel lets it go when the process ends, however it
/// ends, so a killed build never leaves a site locked.
final class BuildLock: Sendable {
    private let descriptor: Int32

    init(site: URL, disk: any Disk) throws {
        let path = site.appendingPathComponent(".folio-lock").path
        let descriptor = disk.open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw DiskFailure(errno, path) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let busy = errno == EWOULDBLOCK
            close(descriptor)
            throw FolioError(path: site.path, reason: busy
                ? "another Folio is building this site right now; wait until it is done, then build again"
                : "cannot take the build lock: \(String(cString: strerror(errno)))")
        }
        self.descriptor = descriptor
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
