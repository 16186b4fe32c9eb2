import Foundation

/// The build's output, written beside `public/` and swapped in whole at the end, so a build
/// that dies half-way leaves the previous site untouched.
public final class PublicOutput: @unchecked Sendable {
    public let destination: URL
    public let staging: URL
    private let fm = FileManager.default
    private var folders = Set<String>()
    private let lock = NSLock()

    public init(destination: URL) throws {
        self.destination = destination
        let parent = destination.deletingLastPathComponent()
        let name = destination.lastPathComponent
        staging = parent.appendingPathComponent(".\(name).staging-\(ProcessInfo.processInfo.processIdentifier)")
        try fm.createDirectory(at: parent, withIntermediateDirectories: true)
        // What an earlier build that died left behind.
        for leftover in (try? fm.contentsOfDirectory(atPath: parent.path)) ?? []
        where leftover.hasPrefix(".\(name).staging-") || leftover == ".\(name).previous" {
            try? fm.removeItem(at: parent.appendingPathComponent(leftover))
        }
        try fm.createDirectory(at: staging, withIntermediateDirectories: true)
    }

    private func prepareFolder(for relative: String) throws {
        let folder = (relative as NSString).deletingLastPathComponent
        guard !folder.isEmpty else { return }
        lock.lock()
        let known = folders.contains(folder)
        if !known { folders.insert(folder) }
        lock.unlock()
        if !known {
            try fm.createDirectory(at: staging.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
    }

    public func write(_ data: Data, to relative: String) throws {
        try prepareFolder(for: relative)
        let url = staging.appendingPathComponent(relative)
        do {
            try data.write(to: url)
        } catch {
            throw FolioError(path: url.path, reason: "cannot write: \(error.localizedDescription)")
        }
    }

    /// Takes `relative` over from the previous build when it is there (a hard link: no copy).
    public func reuse(_ relative: String) -> Bool {
        let old = destination.appendingPathComponent(relative)
        guard fm.fileExists(atPath: old.path) else { return false }
        do {
            try prepareFolder(for: relative)
            let new = staging.appendingPathComponent(relative)
            do { try fm.linkItem(at: old, to: new) } catch { try fm.copyItem(at: old, to: new) }
            return true
        } catch {
            return false
        }
    }

    /// Copies every file of the asset folders to `assets/`, later folders winning.
    public func copyAssets(from assetFolders: [URL]) throws {
        var chosen: [String: URL] = [:]
        for folder in assetFolders where fm.fileExists(atPath: folder.path) {
            for name in try LocalFileAccess().files(under: folder) {
                chosen[name] = folder.appendingPathComponent(name)
            }
        }
        for (name, url) in chosen.sorted(by: { $0.key < $1.key }) {
            try write(try Data(contentsOf: url), to: "assets/\(name)")
        }
    }

    /// Puts the new site in place of the old one.
    public func commit() throws {
        let previous = destination.deletingLastPathComponent().appendingPathComponent(".\(destination.lastPathComponent).previous")
        do {
            if fm.fileExists(atPath: destination.path) {
                try fm.moveItem(at: destination, to: previous)
            }
            try fm.moveItem(at: staging, to: destination)
            try? fm.removeItem(at: previous)
        } catch {
            if !fm.fileExists(atPath: destination.path), fm.fileExists(atPath: previous.path) {
                try? fm.moveItem(at: previous, to: destination)
            }
            throw FolioError(path: destination.path, reason: "cannot put the new site in place: \(error.localizedDescription)")
        }
    }

    public func discard() {
        try? fm.removeItem(at: staging)
    }
}
