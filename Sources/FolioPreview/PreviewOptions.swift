import FolioPipeline
import Foundation

/// How `folio serve` runs.
public struct PreviewOptions: Sendable {
    /// The port to listen on (127.0.0.1 only); when taken, a free one is used instead, unless
    /// `exactPort`. 0: any free port.
    public var port: UInt16
    /// The port was asked for (`--port 8000`): another one would not be where the user looks, so
    /// a taken port is an error. The default port moves on.
    public var exactPort = false
    /// How the site is built, the first time and on every change.
    public var build: BuildOptions
    /// How often the watched files are looked at, in seconds.
    public var pollInterval: TimeInterval
    /// How long a burst of changes must have been quiet before a rebuild starts, in seconds.
    public var settleDelay: TimeInterval
    /// How often open tabs get a keep-alive comment, in seconds.
    public var pingInterval: TimeInterval
    /// How long a client may take to send a request, or stay quiet between two, in seconds.
    public var idleTimeout: TimeInterval

    public init(port: UInt16 = 8000, build: BuildOptions = BuildOptions(), pollInterval: TimeInterval = 0.25,
                settleDelay: TimeInterval = 0.15, pingInterval: TimeInterval = 15, idleTimeout: TimeInterval = 30) {
        self.port = port
        self.build = build
        self.pollInterval = pollInterval
        self.settleDelay = settleDelay
        self.pingInterval = pingInterval
        self.idleTimeout = idleTimeout
    }
}
