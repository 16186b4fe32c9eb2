import CSystem
import FolioChanges
import FolioCore
import Foundation

/// Putting the new site in place: the media no page uses deleted, then the two trees swapped.
extension PublicOutput {
    /// How the new site was put in place.
    public enum Swap: Sendable, Equatable {
        /// In one step: no moment without a complete `public/`.
        case atomic
        /// This file system cannot swap two folders in one step: for a moment there was none.
        case inTwoSteps
    }

    /// Deletes the media no page of the new site refers to, then puts the new site in place of
    /// the old one. `media` holds every media file ("media/….jpg") and tile folder
    /// ("media/tiles/…/") in use, or those among names starting with one of `prefixes` (the
    /// rest are kept unlooked at); nil when they are the last build's, whose media are then all
    /// kept. `stale` are media files ("media/…") known to be out of use, deleted by name.
    /// `pages` are the paths of the published site's pages and files (its manifest): with
    /// the trees in step (`prepare(differing:)`), the pages to delete are found among them.
    @discardableResult
    public func commit(keepingMedia media: PathHashes?, among prefixes: Set<String>? = nil, dropping stale: [String] = [],
                       pages: some Sequence<String> = [String]()) throws -> Swap {
        if let differing {
            try removeUnmade(knowing: pages, differing: differing)
        } else {
            try removeUnmade()
            // The published pages this build did not make are where the trees will differ,
            // whether or not the next tree had them.
            lock.lock()
            for relative in pages where !relative.hasPrefix("media/") && !isMade(relative) { changed?.insert(relative) }
            lock.unlock()
        }
        dropIncoming()
        if let media { try removeUnused(media, among: prefixes) }
        for file in stale where access(nextPath + "/" + file, F_OK) == 0 {
            try disk.removeTree(nextPath + "/" + file)
            unmirror(file)
            noteChanged(file)
        }
        let swap: Swap
        if access(destinationPath, F_OK) != 0 {
            try move(next, to: destination)
            swap = .atomic
            finishTwin()
        } else if disk.exchange(nextPath, destinationPath) == 0 {
            swap = .atomic
        } else if errno == EINVAL || errno == ENOSYS || errno == ENOTSUP {
            let aside = destination.deletingLastPathComponent().appendingPathComponent(".\(destination.lastPathComponent).swap")
            try? disk.removeTree(aside.path)
            try move(destination, to: aside)
            do {
                try move(next, to: destination)
            } catch {
                _ = disk.rename(aside.path, destinationPath)
                throw error
            }
            try move(aside, to: next)
            swap = .inTwoSteps
        } else {
            throw DiskFailure(errno, destinationPath)
        }
        return swap
    }

    private func move(_ from: URL, to: URL) throws {
        guard disk.rename(from.path, to.path) == 0 else { throw DiskFailure(errno, to.path) }
    }

    /// Deletes the media files and tile folders not in `media`, of those whose name starts
    /// with one of `prefixes` and a dash (`MediaLedger.namePrefix(ofFile:)`), or of all.
    private func removeUnused(_ media: PathHashes, among prefixes: Set<String>?) throws {
        func looked(_ name: String) -> Bool {
            guard let prefixes else { return true }
            return MediaLedger.namePrefix(ofFile: name[...]).map { prefixes.contains(String($0)) } ?? false
        }
        let root = next.appendingPathComponent("media")
        for name in Self.names(in: root.path, where: { $0 != "tiles" && looked($0) && !media.contains("media/\($0)") }) {
            try disk.removeTree(root.appendingPathComponent(name).path)
            unmirror("media/\(name)")
            noteChanged("media/\(name)")
        }
        let tiles = root.appendingPathComponent("tiles")
        for name in Self.names(in: tiles.path, where: { looked($0) && !media.contains("media/tiles/\($0)/") }) {
            try disk.removeTree(tiles.appendingPathComponent(name).path)
            unmirror("media/tiles/\(name)", folder: true)
            noteChanged("media/tiles/\(name)/")
        }
    }
}
