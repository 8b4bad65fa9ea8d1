import Foundation

/// The stream behind the descriptors' `Results` sequences: each iteration starts its own run of the query in a
/// task, which ends when the iterator is dropped or the consuming task is cancelled.
struct LiveResults<Element: Sendable>: Sendable {
    let run: @Sendable (AsyncThrowingStream<Element, any Error>.Continuation) async throws -> Void

    func makeStream() -> AsyncThrowingStream<Element, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task.detached {
                do {
                    try await run(continuation)
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
