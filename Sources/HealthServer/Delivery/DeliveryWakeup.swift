/// Tells the deliverer to look at the queue now: after a change to the store, a new callback, a timer. Wakes that come
/// while it is busy fold into one.
final class DeliveryWakeup: Sendable {
    let wakes: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation

    init() {
        (wakes, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    func poke() { continuation.yield() }

    func finish() { continuation.finish() }
}
