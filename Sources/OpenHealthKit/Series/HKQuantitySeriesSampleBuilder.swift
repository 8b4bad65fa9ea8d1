public import Foundation
import HealthStore

/// Builds one quantity sample holding many quantities (steps counted minute by minute, a heart-rate trace), as
/// HealthKit's builder does: insert quantities, then finish to save the series.
///
/// ```swift
/// let builder = HKQuantitySeriesSampleBuilder(healthStore: store, quantityType: HKQuantityType(.stepCount),
///                                             startDate: start, device: nil)
/// try builder.insert(HKQuantity(unit: .count(), doubleValue: 80), for: DateInterval(start: start, duration: 60))
/// try builder.insert(HKQuantity(unit: .count(), doubleValue: 95), for: DateInterval(start: start + 60, duration: 60))
/// let samples = try await builder.finishSeries(metadata: nil, endDate: nil)   // one sample: 175 steps, count 2
/// ```
///
/// The saved sample's quantity is the sum of the quantities (cumulative types) or their average (the others, with
/// their minimum, maximum and most recent); `HKQuantitySeriesSampleQuery` reads them back one by one, and statistics
/// count each over its own interval. A quantity starting where an earlier one starts replaces it, as in HealthKit;
/// one starting before the builder's start date, in a unit of another kind, or inserted after the series was finished
/// or discarded is `errorInvalidArgument` and says why.
open class HKQuantitySeriesSampleBuilder: NSObject, @unchecked Sendable {
    // @unchecked: the quantities live in `state`, behind `lock`.

    public let quantityType: HKQuantityType
    public let startDate: Date
    public let device: HKDevice?
    private let healthStore: HKHealthStore
    private let lock = NSLock()
    private var state = (quantities: [Date: (HKQuantity, DateInterval)](), closed: String?.none)

    public init(healthStore: HKHealthStore, quantityType: HKQuantityType, startDate: Date, device: HKDevice?) {
        self.healthStore = healthStore
        self.quantityType = quantityType
        self.startDate = startDate
        self.device = device
        super.init()
    }

    /// Adds a quantity over `dateInterval`; one starting where an earlier one starts replaces it.
    open func insert(_ quantity: HKQuantity, for dateInterval: DateInterval) throws {
        try QuantitySeriesDraft.check(quantity, for: dateInterval, type: quantityType, start: startDate)
        lock.lock()
        defer { lock.unlock() }
        if let closed = state.closed { throw HKError.invalidArgument("the quantity series builder is \(closed)") }
        state.quantities[dateInterval.start] = (quantity, dateInterval)
    }

    /// Adds a quantity at an instant (an interval of no length).
    open func insert(_ quantity: HKQuantity, at date: Date) throws {
        try insert(quantity, for: DateInterval(start: date, duration: 0))
    }

    /// Saves the series as one sample, from the builder's start to `endDate` (or the end of its last quantity), with
    /// `metadata`; returns it. It needs at least one quantity, and `endDate` may not come before any quantity ends.
    open func finishSeries(metadata: [String: Any]?, endDate: Date?) async throws -> [HKQuantitySample] {
        let checked = try MetadataValidation.validate(metadata, sampleType: quantityType)
        let quantities: [(HKQuantity, DateInterval)] = try {
            lock.lock()
            defer { lock.unlock() }
            if let closed = state.closed { throw HKError.invalidArgument("the quantity series builder is \(closed)") }
            guard !state.quantities.isEmpty else { throw HKError.invalidArgument("a quantity series needs at least one quantity") }
            state.closed = "finished"
            return state.quantities.values.sorted { ($0.1.start, $0.1.end) < ($1.1.start, $1.1.end) }
        }()
        do {
            let draft = QuantitySeriesDraft(type: quantityType, start: startDate, device: device, quantities: quantities, metadata: checked,
                                            endDate: endDate)
            return [try await healthStore.backend().saveQuantitySeries(draft)]
        } catch {
            lock.withLock { state.closed = nil }  // not saved: the app may fix the problem and finish again
            throw error
        }
    }

    /// Completion-handler form of ``finishSeries(metadata:endDate:)``.
    open func finishSeries(metadata: [String: Any]?, endDate: Date?,
                           completion: @escaping @Sendable ([HKQuantitySample]?, (any Error)?) -> Void) {
        let checked: [String: HKMetadataValue]?
        do { checked = try MetadataValidation.validate(metadata, sampleType: quantityType) } catch {
            Task.detached { completion(nil, error) }
            return
        }
        Task.detached {
            do { completion(try await self.finishSeries(metadata: checked?.anyDictionary, endDate: endDate), nil) } catch { completion(nil, error) }
        }
    }

    /// ``finishSeries(metadata:endDate:)`` ending with the last quantity.
    open func finishSeries(metadata: [String: Any]?) async throws -> [HKQuantitySample] {
        try await finishSeries(metadata: metadata, endDate: nil)
    }

    /// Completion-handler form of ``finishSeries(metadata:)``.
    open func finishSeries(metadata: [String: Any]?, completion: @escaping @Sendable ([HKQuantitySample]?, (any Error)?) -> Void) {
        finishSeries(metadata: metadata, endDate: nil, completion: completion)
    }

    /// Forgets the quantities inserted; nothing is saved.
    open func discard() {
        lock.withLock {
            state.quantities = [:]
            state.closed = "discarded"
        }
    }
}
