import Foundation

/// The body of one `text/event-stream` response: the events the live-reload channel sends this
/// tab, as they come. Dropping it when the connection ends drops the subscription with it, so
/// the channel stops writing to a closed tab.
struct EventStreamBody: Sendable {
    let stream: AsyncStream<Data>
    let subscription: LiveReloadChannel.Subscription
}
