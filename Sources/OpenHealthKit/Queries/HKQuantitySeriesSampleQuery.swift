public import Foundation
import HealthStore
import Synchronization

/// The individual quantities inside quantity samples, each with its own date interval: one handler call per
/// quantity, the last with `done` true.
///
/// ```swift
/// let query = HKQuantitySeriesSampleQuery(quantityType: HKQuantityType(.stepCount), predicate: today) {
///     _, quantity, interval, sample, done, error in
///     if let quantity, let interval { print(interval.start, quantity) }
/// }
/// store.execute(query)
/// ```
///
/// What OpenHealthKit stores: every sample saved through the API holds one quantity (`count` 1), so each yields
/// exactly its quantity and interval — what HealthKit does for such samples. The individual entries of a series
/// (`count` > 1, written by HealthKit's series builder) are not kept: such a sample, which can only arrive by
/// import, yields its total (or average) over its whole interval, once. When nothing matches, the handler is called
/// once with `nil` values and `done` true. Privacy as `HKSampleQuery`: without read permission, only the app's own
/// samples.
open class HKQuantitySeriesSampleQuery: HKQuery, @unchecked Sendable {
    // @unchecked: set-once handlers; the options and task are behind Mutexes.

    public typealias QuantityHandler = @Sendable (HKQuantitySeriesSampleQuery, HKQuantity?, DateInterval?, HKQuantitySample?, Bool, (any Error)?) -> Void
    public typealias SampleQuantityHandler = @Sendable (HKQuantitySeriesSampleQuery, HKQuantity?, Date?, Bool, (any Error)?) -> Void

    private enum Handler {
        case intervals(QuantityHandler)
        case dates(SampleQuantityHandler)
    }

    private let handler: Handler
    private let options = Mutex((includeSample: false, orderBySample: false))
    private let task = Mutex<Task<Void, Never>?>(nil)

    /// Whether each call also gets the sample the quantity belongs to (default false).
    public var includeSample: Bool {
        get { options.withLock { $0.includeSample } }
        set { options.withLock { $0.includeSample = newValue } }
    }

    /// Whether quantities come sample by sample in order of the samples' start dates (true), or all together in
    /// order of their own start dates (false, the default).
    public var orderByQuantitySampleStartDate: Bool {
        get { options.withLock { $0.orderBySample } }
        set { options.withLock { $0.orderBySample = newValue } }
    }

    public init(quantityType: HKQuantityType, predicate: NSPredicate?, quantityHandler: @escaping QuantityHandler) {
        handler = .intervals(quantityHandler)
        super.init(objectType: quantityType, predicate: predicate)
    }

    /// The quantities of one sample, each with its start date.
    @available(*, deprecated, message: "use init(quantityType:predicate:quantityHandler:)")
    public init(sample: HKQuantitySample, quantityHandler: @escaping SampleQuantityHandler) {
        handler = .dates(quantityHandler)
        super.init(objectType: sample.quantityType, predicate: HKQuery.predicateForObject(with: sample.uuid))
    }

    /// One quantity of a series: its value, its interval, and the sample holding it.
    struct Entry: @unchecked Sendable {
        // @unchecked: the sample is immutable.
        let quantity: HKQuantity
        let interval: DateInterval
        let sample: HKQuantitySample
    }

    /// The quantities of the samples of `type` matching `predicate` that the store's app may see: a sample holding one
    /// quantity gives it, a series sample (`HKQuantitySeriesSampleBuilder`) each of its quantities. In order of their
    /// own start dates, or sample by sample when `bySample` (``orderByQuantitySampleStartDate``).
    static func entries(type: HKSampleType, predicate: NSPredicate?, bySample: Bool = false, on store: HKHealthStore) async throws -> [Entry] {
        let plan = try SampleQueryPlan(type: type, predicate: predicate, limit: HKObjectQueryNoLimit,
                                       order: [SampleOrder(key: .startDate, ascending: true), SampleOrder(key: .endDate, ascending: true)])
        var entries: [Entry] = []
        var series = false
        let samples = try await plan.run(on: store).compactMap { $0 as? HKQuantitySample }
        // The quantities of every series sample at once (one call to the daemon, not one a sample).
        let seriesUUIDs = samples.filter { $0.count > 1 }.map(\.uuid)
        let quantities = seriesUUIDs.isEmpty ? [:] : try await store.backend().quantitySeries(of: seriesUUIDs, type: samples[0].quantityType)
        for sample in samples {
            guard let parts = quantities[sample.uuid], !parts.isEmpty else {
                entries.append(Entry(quantity: sample.quantity, interval: DateInterval(start: sample.startDate, end: sample.endDate),
                                     sample: sample))
                continue
            }
            series = true
            for part in parts {
                entries.append(Entry(quantity: HKQuantity(unit: sample.quantity.unit, doubleValue: part.value), interval: part.interval,
                                     sample: sample))
            }
        }
        if series, !bySample {
            entries = entries.enumerated().sorted { a, b in
                (a.element.interval.start, a.element.interval.end, a.offset) < (b.element.interval.start, b.element.interval.end, b.offset)
            }.map(\.element)
        }
        return entries
    }
}

extension HKQuantitySeriesSampleQuery: ExecutableQuery {
    func start(on store: HKHealthStore) {
        let type = objectType as! HKSampleType, predicate = UncheckedPredicate(predicate)
        let (includeSample, bySample) = options.withLock { ($0.includeSample, $0.orderBySample) }
        let started = Task.detached { [self] in
            do {
                let entries = try await Self.entries(type: type, predicate: predicate.value, bySample: bySample, on: store)
                guard !entries.isEmpty else {
                    guard !Task.isCancelled else { return }
                    return report(nil, last: true)
                }
                for (index, entry) in entries.enumerated() {
                    guard !Task.isCancelled else { return }
                    report(entry, includeSample: includeSample, last: index == entries.count - 1)
                }
            } catch {
                guard !Task.isCancelled else { return }
                switch handler {
                case .intervals(let handler): handler(self, nil, nil, nil, true, error)
                case .dates(let handler): handler(self, nil, nil, true, error)
                }
            }
        }
        task.withLock { $0 = started }
    }

    private func report(_ entry: Entry?, includeSample: Bool = false, last: Bool) {
        switch handler {
        case .intervals(let handler): handler(self, entry?.quantity, entry?.interval, includeSample ? entry?.sample : nil, last, nil)
        case .dates(let handler): handler(self, entry?.quantity, entry?.interval.start, last, nil)
        }
    }

    func stop() {
        task.withLock { $0?.cancel() }
    }
}
