public import Foundation
import HealthStore
import Synchronization

/// Reads the locations of a workout route, in order, in batches; the handler's `done` is true with the last batch.
///
/// ```swift
/// let query = HKWorkoutRouteQuery(route: route) { _, locations, done, error in
///     points += locations ?? []
///     if done { draw(points) }
/// }
/// store.execute(query)
/// ```
///
/// A route the app may not read (no read permission for `HKSeriesType.workoutRoute()` and not its own) is reported
/// exactly like a route that is not in the store: `errorNoData`, so an app cannot tell the two apart.
open class HKWorkoutRouteQuery: HKQuery, @unchecked Sendable {
    // @unchecked: set-once properties; the running task is behind a Mutex.

    public typealias DataHandler = @Sendable (HKWorkoutRouteQuery, [CLLocation]?, Bool, (any Error)?) -> Void

    /// How many locations one call of the handler carries at most.
    static let batchSize = 500

    private let route: HKWorkoutRoute
    private let dateInterval: DateInterval?
    private let handler: DataHandler
    private let task = Mutex<Task<Void, Never>?>(nil)

    /// All of `route`'s locations.
    public init(route: HKWorkoutRoute, dataHandler: @escaping DataHandler) {
        self.route = route
        dateInterval = nil
        handler = dataHandler
        super.init(objectType: HKSeriesType.workoutRoute(), predicate: HKQuery.predicateForObject(with: route.uuid))
    }

    /// The locations of `route` timestamped within `dateInterval`.
    public init(route: HKWorkoutRoute, dateInterval: DateInterval, dataHandler: @escaping DataHandler) {
        self.route = route
        self.dateInterval = dateInterval
        handler = dataHandler
        super.init(objectType: HKSeriesType.workoutRoute(), predicate: HKQuery.predicateForObject(with: route.uuid))
    }

    /// The route's locations, when the reader of `store` may see the route.
    static func locations(of route: HKWorkoutRoute, in interval: DateInterval?, on store: HKHealthStore) async throws -> [CLLocation] {
        try await store.backend().routeLocations(of: route.uuid, in: interval)
    }
}

extension HKWorkoutRouteQuery: ExecutableQuery {
    func start(on store: HKHealthStore) {
        let route = self.route, interval = dateInterval
        let started = Task.detached { [self] in
            do {
                let locations = try await Self.locations(of: route, in: interval, on: store)
                guard !locations.isEmpty else {
                    guard !Task.isCancelled else { return }
                    return handler(self, [], true, nil)
                }
                for start in stride(from: 0, to: locations.count, by: Self.batchSize) {
                    guard !Task.isCancelled else { return }
                    let end = min(start + Self.batchSize, locations.count)
                    handler(self, Array(locations[start..<end]), end == locations.count, nil)
                }
            } catch {
                guard !Task.isCancelled else { return }
                handler(self, nil, true, error)
            }
        }
        task.withLock { $0 = started }
    }

    func stop() {
        task.withLock { $0?.cancel() }
    }
}
