import Foundation

/// Hands batches from the reading thread to one writing thread, with at most `capacity` waiting, so that reading the
/// next part of a file overlaps storing the last one. The writer's first error reaches the reader at its next `submit`
/// (or at `finish`), and nothing more is written after it.
package final class ImportPipeline<Batch: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var waiting: [Batch] = []
    private var closed = false
    private var running = true
    private var failure: (any Error)?
    private let capacity: Int

    /// Starts the writing thread, which calls `write` with each submitted batch in order.
    package init(capacity: Int = 2, write: @escaping @Sendable (Batch) throws -> Void) {
        self.capacity = capacity
        let thread = Thread { [self] in
            while let batch = next() {
                do {
                    try write(batch)
                } catch {
                    condition.lock()
                    failure = error
                    waiting.removeAll()
                    closed = true
                    condition.broadcast()
                    condition.unlock()
                }
            }
            condition.lock()
            running = false
            condition.broadcast()
            condition.unlock()
        }
        thread.name = "OpenHealthKit import writer"
        thread.start()
    }

    private func next() -> Batch? {
        condition.lock()
        defer { condition.unlock() }
        while waiting.isEmpty && !closed { condition.wait() }
        guard !waiting.isEmpty else { return nil }
        let batch = waiting.removeFirst()
        condition.broadcast()
        return batch
    }

    /// Queues `batch`, waiting while `capacity` batches are queued; throws the writer's error if it failed.
    package func submit(_ batch: Batch) throws {
        condition.lock()
        defer { condition.unlock() }
        while waiting.count >= capacity && failure == nil && !closed { condition.wait() }
        if let failure { throw failure }
        guard !closed else { return }
        waiting.append(batch)
        condition.broadcast()
    }

    /// Waits until every queued batch is written; throws the writer's error if it failed.
    package func finish() throws {
        close()
        condition.lock()
        defer { condition.unlock() }
        if let failure { throw failure }
    }

    /// Stops taking batches and waits for the writer to finish what it holds. Safe to call more than once.
    package func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        while running { condition.wait() }
        condition.unlock()
    }
}
