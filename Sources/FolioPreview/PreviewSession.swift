import FolioCore
import FolioPipeline
import Foundation

/// `folio serve`: serves `public/` on 127.0.0.1, watches the site's inputs, rebuilds when they
/// change and tells the open tabs to reload. Builds never overlap: changes that arrive during a
/// build go into the next. A failed build leaves the last good site served and shows its error
/// in the terminal and on the page.
public actor PreviewSession {
    public nonisolated let paths: SitePaths
    public nonisolated let options: PreviewOptions
    public nonisolated let channel = LiveReloadChannel()
    private nonisolated let log: @Sendable (String) -> Void
    private let executor: BuildExecutor

    private var server: PreviewServer?
    private var watching: Task<Void, Never>?
    private var pinging: Task<Void, Never>?
    private var draining: Task<Void, Never>?
    private var pending: Set<String> = []
    private var needsBuild = false
    private var buildOptions: BuildOptions
    /// Builds finished since the start, failed ones included.
    public private(set) var builds = 0
    /// The report of the last build that put a site in place.
    public private(set) var lastReport: BuildReport?
    private var running = 0
    /// Builds that started while another ran: always 0, the tests hold us to it.
    public private(set) var overlappingBuilds = 0
    /// Awaited by every build before it starts, with the changes it builds: lets a test hold a
    /// build while it asks for more.
    var buildStarting: (@Sendable ([String]) async -> Void)?
    /// Held while several files that belong together are written (tests), so the watcher sees
    /// them as one change.
    nonisolated let watchPause = WatchPause()
    public private(set) var url: URL?

    public init(paths: SitePaths, options: PreviewOptions = PreviewOptions(), log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.paths = paths
        self.options = options
        self.log = log
        buildOptions = options.build
        executor = BuildExecutor(threads: options.build.concurrency ?? ProcessInfo.processInfo.activeProcessorCount)
    }

    deinit { executor.shutdown() }

    /// What is watched: the site's inputs, and the theme when one was named.
    public nonisolated var watched: [URL] {
        [paths.content, paths.templates, paths.settings] + (options.build.themeFolder.map { [$0] } ?? [])
    }

    /// Starts serving (the previous `public/`, if any, until the first build is done), starts
    /// the first build and the watcher, and returns the address. Throws when the folder is not
    /// a site or no port can be listened on.
    @discardableResult
    public func start() async throws -> URL {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: paths.content.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw FolioError(path: paths.root.path, reason: "not a Folio site: it has no content/ folder (try 'folio new')")
        }
        let handler = PreviewHandler(folder: PublicFolder(root: paths.output), channel: channel)
        let server = try await PreviewServer.start(port: options.port, movingOn: !options.exactPort, handler: handler, idleTimeout: options.idleTimeout)
        self.server = server
        var address = URLComponents()
        address.scheme = "http"
        address.host = "127.0.0.1"
        address.port = Int(server.port)
        address.path = "/"
        guard let url = address.url else {
            await server.stop()
            throw FolioError(path: "127.0.0.1:\(server.port)", reason: "no URL for the server's address")
        }
        self.url = url
        if options.port != 0 && server.port != options.port {
            log("Port \(options.port) is taken; using port \(server.port) instead.")
        }
        log("Serving \(paths.shown(paths.output))/ at \(url) — Ctrl-C stops.")

        // The watcher's first look is taken before the first build, so an edit made while it
        // runs is not missed.
        let excluded = [paths.output, paths.database]
        let watcher = SiteWatcher(roots: watched, excluded: excluded, interval: options.pollInterval,
                                  settle: options.settleDelay, pause: watchPause)
        let baseline = FolderSnapshot.take(watched, excluding: excluded)
        requestBuild([])
        // Held until stop() cancels it.
        watching = Task {
            await watcher.run(from: baseline) { changed in await self.requestBuild(changed) }
        }
        let channel = channel, interval = options.pingInterval
        pinging = Task {
            while !Task.isCancelled {
                try? await Task.sleep(nanoseconds: SiteWatcher.nanoseconds(interval))
                channel.ping()
            }
        }
        let shown = watched.map { $0 == paths.settings ? paths.shown($0) : paths.shown($0) + "/" }
        log("Watching \(shown.joined(separator: ", ")).")
        return url
    }

    /// Asks for a build; one under way finishes first, and every change asked for meanwhile
    /// goes into the one after it.
    @discardableResult
    package func requestBuild(_ changed: [String]) -> Task<Void, Never> {
        pending.formUnion(changed)
        needsBuild = true
        if let draining { return draining }
        let task = Task { await drain() }
        draining = task
        return task
    }

    /// Returns once no build is under way or asked for.
    public func idle() async {
        while let draining { await draining.value }
    }

    private func drain() async {
        while needsBuild {
            needsBuild = false
            let changed = pending.sorted()
            pending = []
            await build(changed)
        }
        draining = nil
    }

    package func setBuildStarting(_ hook: (@Sendable ([String]) async -> Void)?) {
        buildStarting = hook
    }

    private func build(_ changed: [String]) async {
        await buildStarting?(changed)
        channel.buildStarted()
        if builds == 0 { log("Building the site…") }
        if !changed.isEmpty {
            let shown = changed.map { paths.shown(URL(fileURLWithPath: $0)) }
            log("\(shown.prefix(3).joined(separator: ", "))\(shown.count > 3 ? " and \(shown.count - 3) more" : "") changed; rebuilding.")
        }
        running += 1
        if running > 1 { overlappingBuilds += 1 }
        let result = await Self.run(SiteBuild(paths: paths, options: buildOptions), on: executor)
        running -= 1
        // Progress lines are for the first build; later ones are quick and print one line.
        buildOptions.progress = false
        builds += 1
        switch result {
        case .success(let report):
            lastReport = report
            for issue in report.issues { log("\(issue)") }
            if report.succeeded {
                log("Built: \(report.summary).")
                channel.siteReplaced(error: nil)
            } else {
                log("Built with problems: \(report.summary); the rest of the site is served.")
                channel.siteReplaced(error: shown(report.errors.map { "\($0.path): \($0.reason)" }.joined(separator: "\n")),
                                     headline: report.problemHeadline)
            }
            for line in report.skippedLines { log(line) }
        case .failure(let error):
            let message = shown("\(error)")
            log("error: \(message)\nThe build failed; still serving the last good site.")
            channel.buildFailed(message)
        }
    }

    /// `message` with the site's own paths relative to it, as the person editing knows them.
    private nonisolated func shown(_ message: String) -> String {
        message.replacingOccurrences(of: paths.root.path + "/", with: "")
    }

    /// Runs a build on the build threads (see `BuildExecutor`), whose steps and photo work
    /// inherit the preference.
    private nonisolated static func run(_ build: SiteBuild, on executor: BuildExecutor) async -> Result<BuildReport, any Error> {
        func attempt() async -> Result<BuildReport, any Error> {
            do { return .success(try await build.run()) } catch { return .failure(error) }
        }
        if #available(macOS 15.0, *) {
            return await withTaskExecutorPreference(executor) { await attempt() }
        }
        return await attempt()
    }

    /// Stops watching, lets a build under way finish (a build cut short leaves its scratch
    /// folder behind), closes the tabs' event streams and stops the server.
    public func stop() async {
        watching?.cancel()
        pinging?.cancel()
        await watching?.value
        if draining != nil {
            log("Waiting for the build under way to finish…")
            needsBuild = false
            await idle()
        }
        channel.close()
        await server?.stop()
        server = nil
        executor.shutdown()
    }
}
