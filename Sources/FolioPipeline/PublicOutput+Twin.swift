import CSystem
import FolioCore
import Foundation

/// The tree beside the site, made as a cold build goes: a build with no published site links
/// each file it makes into a third tree, `.public.twin`, and mirrors what it deletes; once the
/// new site is in place the twin takes the next tree's name, one file with it at every path
/// (`twinIsNext`), so the build after it is an ordinary one. A link that fails ends the
/// mirroring and the twin goes; a twin left by a build killed after its swap becomes the next
/// tree, without a ledger.
extension PublicOutput {
    var twinPath: String {
        destination.deletingLastPathComponent().appendingPathComponent(".\(destination.lastPathComponent).twin").path
    }

    /// Deals with a twin an earlier build left, and says whether this build is a cold one that
    /// makes a twin: neither `public/` nor the next tree there, and no ledger of them.
    func takeOverTwin(differing: PathSet?) throws -> Bool {
        let leftover = access(twinPath, F_OK) == 0
        let published = access(destinationPath, F_OK) == 0
        let hasNext = access(nextPath, F_OK) == 0
        if leftover {
            // Killed after its swap: the twin is the site in place, file for file.
            if published, !hasNext, disk.rename(twinPath, nextPath) == 0 { return false }
            try disk.removeTree(twinPath)
        }
        return differing == nil && !published && !hasNext
    }

    func startTwin() throws {
        try disk.makeFolders(twinPath)
        twin = twinPath
    }

    /// Links the next tree's file (or, with `tree`, folder of tiles) `relative` into the twin,
    /// in place of what the twin held there.
    func mirror(_ relative: String, tree: Bool = false) {
        guard let twin, !isTwinBroken else { return }
        let source = nextPath + "/" + relative, target = twin + "/" + relative
        do {
            try prepareFolder(Self.folder(of: relative, in: twin), within: twin)
            if tree {
                try disk.removeTree(target)
                try linkTree(source, target, copying: false)
            } else if disk.link(source, target) != 0 {
                // Most often nothing is there yet (the twin is being made): a link straight away,
                // not a look for something to remove first.
                let failure = errno
                guard failure == EEXIST, disk.unlink(target) == 0 || errno == ENOENT, disk.link(source, target) == 0 else {
                    throw DiskFailure(failure == EEXIST ? errno : failure, target)
                }
            }
        } catch {
            breakTwin()
        }
    }

    /// Deletes the twin's file or folder `relative`, as the next tree's went; where it will not
    /// go, the twin is no copy of the new site any more.
    func unmirror(_ relative: String, folder: Bool = false) {
        guard let twin else { return }
        let target = twin + "/" + relative
        do {
            if folder {
                try disk.removeTree(target)
            } else if disk.unlink(target) != 0, errno != ENOENT {
                throw DiskFailure(errno, target)
            }
        } catch {
            breakTwin()
        }
    }

    /// Once the new site is in place: the twin becomes the tree beside it, or goes.
    func finishTwin() {
        guard let twin else { return }
        if !isTwinBroken, disk.rename(twin, nextPath) == 0 {
            twinIsNext = true
        } else {
            try? disk.removeTree(twin)
        }
        self.twin = nil
    }

    /// The twin is no copy of the new site: it goes at the end. Its own lock, as `unmirror`
    /// is called with the output's held.
    private func breakTwin() {
        twinLock.withLock { twinBroken = true }
    }

    private var isTwinBroken: Bool { twinLock.withLock { twinBroken } }
}
