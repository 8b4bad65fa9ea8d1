/// A query descriptor that runs once and returns its output (Swift concurrency form of HealthKit's queries).
public protocol HKAsyncQuery {
    associatedtype Output
    func result(for healthStore: HKHealthStore) async throws -> Output
}

/// A query descriptor whose results arrive as an asynchronous sequence (initial results, then updates).
public protocol HKAsyncSequenceQuery {
    associatedtype Sequence: AsyncSequence
    func results(for healthStore: HKHealthStore) -> Sequence
}
