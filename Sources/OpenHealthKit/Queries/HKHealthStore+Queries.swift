import Foundation

/// A query `HKHealthStore.execute(_:)` knows how to run.
protocol ExecutableQuery: AnyObject {
    func start(on store: HKHealthStore)
    func stop()
}

extension HKHealthStore {
    /// Starts a query; its handler runs off the caller's thread. A kind of query OpenHealthKit cannot run yet
    /// is reported on standard error and never calls its handler.
    public func execute(_ query: HKQuery) {
        guard let query = query as? any ExecutableQuery else {
            FileHandle.standardError.write(Data("OpenHealthKit: \(type(of: query)) queries are not supported yet\n".utf8))
            return
        }
        query.start(on: self)
    }

    /// Stops a query: a one-shot query that has not answered yet never will; a long-running one stops updating.
    public func stop(_ query: HKQuery) {
        (query as? any ExecutableQuery)?.stop()
    }
}
