// Porting corpus: a live heart-rate monitor in the classic long-running style: an HKAnchoredObjectQuery whose
// updateHandler delivers each new and deleted reading, an HKObserverQuery (with background delivery) that counts the
// store's change notifications, both stopped with HKHealthStore.stop(_:). State lives behind a serial queue, as
// HealthKit calls the handlers on background queues. Written for this suite; only the import is OpenHealthKit's.
#if canImport(HealthKit)
import HealthKit
#else
import OpenHealthKit
#endif

final class HeartRateMonitor: @unchecked Sendable {
    struct Reading: Equatable {
        let uuid: UUID
        let date: Date
        let beatsPerMinute: Double
    }

    let healthStore: HKHealthStore
    private let heartRateType = HKObjectType.quantityType(forIdentifier: .heartRate)!
    private let queue = DispatchQueue(label: "com.example.heartrate.monitor")

    // Guarded by `queue`.
    private var anchor: HKQueryAnchor?
    private var readingsByID: [UUID: Reading] = [:]
    private var notifications = 0
    private var anchoredQuery: HKAnchoredObjectQuery?
    private var observerQuery: HKObserverQuery?

    init(healthStore: HKHealthStore) {
        self.healthStore = healthStore
    }

    /// The readings received so far, oldest first.
    var readings: [Reading] {
        queue.sync { readingsByID.values.sorted { $0.date < $1.date } }
    }

    /// How many times the observer query was told the store changed.
    var changeNotifications: Int {
        queue.sync { notifications }
    }

    /// Starts following readings taken from `start` on; `onUpdate` gets the readings after every delivery.
    func start(from start: Date, onUpdate: @escaping @Sendable ([Reading]) -> Void) {
        let predicate = HKQuery.predicateForSamples(withStart: start, end: nil, options: .strictStartDate)
        let handler: @Sendable (HKAnchoredObjectQuery, [HKSample]?, [HKDeletedObject]?, HKQueryAnchor?, Error?) -> Void = {
            [weak self] _, samples, deleted, newAnchor, error in
            guard let self = self, error == nil else { return }
            self.queue.async {
                self.anchor = newAnchor
                for sample in samples as? [HKQuantitySample] ?? [] {
                    let beats = sample.quantity.doubleValue(for: HKUnit.count().unitDivided(by: HKUnit.minute()))
                    self.readingsByID[sample.uuid] = Reading(uuid: sample.uuid, date: sample.startDate, beatsPerMinute: beats)
                }
                for object in deleted ?? [] {
                    self.readingsByID[object.uuid] = nil
                }
                let current = self.readingsByID.values.sorted { $0.date < $1.date }
                DispatchQueue.main.async { onUpdate(current) }
            }
        }
        let query = HKAnchoredObjectQuery(type: heartRateType, predicate: predicate, anchor: queue.sync { anchor },
                                          limit: HKObjectQueryNoLimit, resultsHandler: handler)
        query.updateHandler = handler

        let observer = HKObserverQuery(sampleType: heartRateType, predicate: nil) { [weak self] _, completionHandler, error in
            defer { completionHandler() }
            guard let self = self, error == nil else { return }
            self.queue.async { self.notifications += 1 }
        }
        queue.sync {
            anchoredQuery = query
            observerQuery = observer
        }
        healthStore.enableBackgroundDelivery(for: heartRateType, frequency: .immediate) { _, _ in }
        healthStore.execute(observer)
        healthStore.execute(query)
    }

    func stop() {
        let (query, observer) = queue.sync { () -> (HKAnchoredObjectQuery?, HKObserverQuery?) in
            defer { anchoredQuery = nil; observerQuery = nil }
            return (anchoredQuery, observerQuery)
        }
        if let query = query { healthStore.stop(query) }
        if let observer = observer { healthStore.stop(observer) }
        healthStore.disableBackgroundDelivery(for: heartRateType) { _, _ in }
    }
}
