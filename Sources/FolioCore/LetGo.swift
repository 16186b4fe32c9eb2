import Foundation

/// Lets go of a large value on another core: freeing what a large library's build holds (each
/// photo's strings, a large dictionary's entries) is work the build need not wait for. Called as
/// the caller is about to drop its own references (it returns): the value is freed once the
/// other core gets to it, after that.
package func letGo<Value: Sendable>(_ value: consuming Value) {
    let held = Held(consume value)
    DispatchQueue.global(qos: .utility).async { held.value = nil }
}

/// A value on its way to being freed, taken by the one closure that frees it.
private final class Held<Value>: @unchecked Sendable {
    var value: Value?

    init(_ value: consuming Value) {
        self.value = consume value
    }
}
