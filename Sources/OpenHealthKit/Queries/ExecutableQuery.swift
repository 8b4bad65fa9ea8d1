import Foundation

/// A query `HKHealthStore.execute(_:)` knows how to run.
protocol ExecutableQuery: AnyObject {
    func start(on store: HKHealthStore)
    func stop()
}

