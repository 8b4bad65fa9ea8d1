public import Foundation

/// The locations of a workout route as an asynchronous sequence, in order.
///
/// ```swift
/// for try await location in HKWorkoutRouteQueryDescriptor(route).results(for: store) { track.append(location) }
/// ```
public struct HKWorkoutRouteQueryDescriptor: HKAsyncSequenceQuery, Sendable {
    public var workoutRoute: HKWorkoutRoute

    public init(_ workoutRoute: HKWorkoutRoute) {
        self.workoutRoute = workoutRoute
    }

    public struct Results: AsyncSequence, Sendable {
        public typealias Element = CLLocation
        let live: LiveResults<CLLocation>

        /// Steps through the results as they come.
        public struct Iterator: AsyncIteratorProtocol {
            var base: AsyncThrowingStream<CLLocation, any Error>.AsyncIterator
            public mutating func next() async throws -> CLLocation? { try await base.next() }
        }

        public func makeAsyncIterator() -> Iterator { Iterator(base: live.makeStream().makeAsyncIterator()) }
    }

    public func results(for healthStore: HKHealthStore) -> Results {
        let route = workoutRoute
        return Results(live: LiveResults { continuation in
            for location in try await HKWorkoutRouteQuery.locations(of: route, in: nil, on: healthStore) {
                guard !Task.isCancelled else { return }
                continuation.yield(location)
            }
        })
    }
}
