import Foundation

/// The preview's side of live reload: every open tab holds a server-sent event stream, and the
/// channel tells them all when a build starts, when a new site is in place (reload) and when a
/// build failed (show the error, keep the page). A tab that connects later, or reconnects after
/// a restart, first gets the current state, so it shows a standing error and reloads if it
/// missed a build.
public final class LiveReloadChannel: @unchecked Sendable {
    /// What a tab needs to know on connecting.
    public struct State: Sendable, Equatable {
        /// Changes with every finished build, and between runs of `folio serve`.
        public var build: String
        public var building: Bool
        /// The last build's errors, for the page's overlay; nil when it went well.
        public var error: String?
        /// What the overlay's title says of them when the build put a site in place anyway
        /// ("built, 1 photo skipped"); nil when the build failed and the last good site is served.
        public var headline: String? = nil
    }

    /// One tab's stream; dropping it (the connection ended) unsubscribes.
    final class Subscription: Sendable {
        let id: UUID
        let channel: LiveReloadChannel

        init(id: UUID, channel: LiveReloadChannel) {
            self.id = id
            self.channel = channel
        }

        deinit { channel.unsubscribe(id) }
    }

    private let lock = NSLock()
    private var subscribers: [UUID: AsyncStream<Data>.Continuation] = [:]
    private var state: State
    private var closed = false
    private let session = String(UInt32.random(in: 0...UInt32.max), radix: 36)
    private var builds = 0

    public init() {
        state = State(build: "\(session)-0", building: false, error: nil)
    }

    public var current: State { lock.withLock { state } }
    public var subscriberCount: Int { lock.withLock { subscribers.count } }

    /// A new tab's stream: the reconnection delay, then the current state.
    func subscribe() -> EventStreamBody {
        let id = UUID()
        // A slow tab that stops reading holds a few events at most, never an unbounded backlog.
        let (stream, continuation) = AsyncStream<Data>.makeStream(bufferingPolicy: .bufferingNewest(32))
        lock.withLock {
            if closed {
                continuation.finish()
            } else {
                continuation.yield(Data("retry: 1000\n\n".utf8))
                continuation.yield(Self.event("hello", Self.json(state)))
                subscribers[id] = continuation
            }
        }
        return EventStreamBody(stream: stream, subscription: Subscription(id: id, channel: self))
    }

    func unsubscribe(_ id: UUID) {
        let continuation = lock.withLock { subscribers.removeValue(forKey: id) }
        continuation?.finish()
    }

    public func buildStarted() {
        send("building") { state in state.building = true }
    }

    /// A new site is in place: every tab reloads. `error` is set when the build put a site in
    /// place but some photos or records failed, `headline` says so; the reloaded page shows both.
    public func siteReplaced(error: String?, headline: String? = nil) {
        send("reload") { state in
            self.builds += 1
            state = State(build: "\(self.session)-\(self.builds)", building: false, error: error, headline: error == nil ? nil : headline)
        }
    }

    /// The build failed and the previous site is still the one served: tabs show the error.
    public func buildFailed(_ error: String) {
        send("build-failed") { state in
            state.building = false
            state.error = error
            state.headline = nil
        }
    }

    /// A comment line every so often: proxies and browsers keep the stream open, and a write
    /// to a tab that went away ends its connection.
    public func ping() {
        broadcast(Data(": ping\n\n".utf8))
    }

    /// Ends every stream, so their connections close and the server can stop.
    public func close() {
        let all = lock.withLock {
            closed = true
            defer { subscribers = [:] }
            return Array(subscribers.values)
        }
        for continuation in all { continuation.finish() }
    }

    // Yielding under the lock keeps every tab's events in the order the states changed.
    private func send(_ name: String, _ change: (inout State) -> Void) {
        lock.withLock {
            change(&state)
            let data = Self.event(name, Self.json(state))
            for continuation in subscribers.values { continuation.yield(data) }
        }
    }

    private func broadcast(_ data: Data) {
        lock.withLock {
            for continuation in subscribers.values { continuation.yield(data) }
        }
    }

    static func event(_ name: String, _ data: String) -> Data {
        Data("event: \(name)\ndata: \(data)\n\n".utf8)
    }

    /// One line of JSON: SSE data may not hold a bare newline, and JSON escapes every one.
    static func json(_ state: State) -> String {
        var object: [String: Any] = ["build": state.build, "building": state.building]
        object["error"] = state.error ?? NSNull()
        object["headline"] = state.headline ?? NSNull()
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
