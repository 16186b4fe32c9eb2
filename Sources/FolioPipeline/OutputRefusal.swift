import FolioChanges
import FolioCore
import Foundation

extension SitePaths {
    /// Why `output` cannot take a build, or nil. A build replaces the whole folder (the new site
    /// is swapped in, and the old one emptied for the next build): the site's own folder, one
    /// above it, or one it reads from would be lost, and a folder of someone else's files too.
    public func outputRefusal() -> String? {
        func real(_ url: URL) -> String {
            guard let resolved = realpath(url.path, nil) else { return url.standardizedFileURL.path }
            defer { free(resolved) }
            return String(cString: resolved)
        }
        let out = real(output)
        if real(root).pathRelative(to: out) != nil {
            return "is the site's own folder or holds it: a build replaces the whole output folder, content/ and the model with it"
        }
        for (folder, name) in [(content, "content/"), (templates, "templates/"), (cache, "folio-cache/")] where out.pathRelative(to: real(folder)) != nil {
            return "is inside \(name), which a build reads: choose a folder beside it, such as public/"
        }
        let entries = ((try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []).filter { !$0.hasPrefix(".") }
        // This site's build state names the folder it published; an older Folio left its
        // state in the folder itself; and any Folio's site has its script.
        let madeByFolio = BuildState(paths: self).describesOutput
            || [BuildMark.legacyFileName, PageManifest.legacyFileName, "assets/folio.js"].contains {
                FileManager.default.fileExists(atPath: out + "/" + $0)
            }
        if !entries.isEmpty && !madeByFolio {
            return "holds files Folio did not make: a build replaces the whole folder; choose an empty or new one"
        }
        return nil
    }
}
