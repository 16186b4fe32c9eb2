import FlyingSocks
import Foundation

/// The body of one `text/event-stream` response: the events the live-reload channel sends this
/// client, as they come. When the client goes away FlyingFox drops the body, and the
/// subscription with it, so the channel stops writing to a closed tab.
struct EventStreamBody: AsyncBufferedSequence {
    typealias Element = UInt8

    let stream: AsyncStream<Data>
    let subscription: LiveReloadChannel.Subscription

    func makeAsyncIterator() -> Iterator {
        Iterator(base: stream.makeAsyncIterator(), subscription: subscription)
    }

    struct Iterator: AsyncBufferedIteratorProtocol {
        var base: AsyncStream<Data>.Iterator
        let subscription: LiveReloadChannel.Subscription
        var pending = Data()

        mutating func next() async throws -> UInt8? {
            try await nextBuffer(suggested: 1)?.first
        }

        mutating func nextBuffer(suggested count: Int) async throws -> Data? {
            while pending.isEmpty {
                guard let event = await base.next() else { return nil }
                pending = event
            }
            let size = Swift.max(1, Swift.min(count, pending.count))
            let chunk = Data(pending.prefix(size))
            pending = Data(pending.dropFirst(size))
            return chunk
        }
    }
}
