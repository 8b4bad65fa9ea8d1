// Porting corpus: the cleanup an importing app needs: it tags what it imports with HKMetadataKeySyncIdentifier and
// HKMetadataKeySyncVersion, finds its own entries, removes a batch with deleteObjects(of:predicate:withCompletion:),
// removes single entries with delete(_:withCompletion:), and tells its server what went away from the deleted objects
// of an HKAnchoredObjectQuery. Written for this suite; only the import is OpenHealthKit's.
#if canImport(HealthKit)
import HealthKit
#else
import OpenHealthKit
#endif

final class ImportCleanupService: @unchecked Sendable {
    static let batchKey = "com.example.importer.batch"

    let healthStore: HKHealthStore
    private let type = HKQuantityType.quantityType(forIdentifier: .dietaryWater)!
    private let lock = NSLock()
    private var anchor: HKQueryAnchor?

    init(healthStore: HKHealthStore) {
        self.healthStore = healthStore
    }

    func requestAuthorization() async throws {
        try await healthStore.requestAuthorization(toShare: [type], read: [type])
    }

    /// Imports drinks (millilitres at a date) as one batch; each entry's sync identifier makes re-imports replace it.
    func importBatch(_ name: String, entries: [(id: String, date: Date, milliliters: Double)],
                     completion: @escaping @Sendable (Bool, Error?) -> Void) {
        let samples = entries.map { entry in
            HKQuantitySample(type: type, quantity: HKQuantity(unit: .literUnit(with: .milli), doubleValue: entry.milliliters),
                             start: entry.date, end: entry.date,
                             metadata: [HKMetadataKeySyncIdentifier: entry.id, HKMetadataKeySyncVersion: 1, Self.batchKey: name])
        }
        healthStore.save(samples, withCompletion: completion)
    }

    /// This app's entries, oldest first (other apps' water is left out).
    ///
    /// PORTING NOTE: written as `HKQuery.predicateForObjects(from: HKSource.default())`, HealthKit's way to select the
    /// app's own objects. In OpenHealthKit `HKSource.default()` is the app named by the process's manifest
    /// (`OPENHEALTHKIT_APP`); the test process opens stores for several apps by configuration and has none, so there it
    /// is the process and that predicate matched nothing. The porter's change: select by the metadata key the app puts on
    /// everything it imports.
    func ownEntries(completion: @escaping @Sendable ([HKQuantitySample]) -> Void) {
        let mine = HKQuery.predicateForObjects(withMetadataKey: Self.batchKey)
        let oldestFirst = NSSortDescriptor(key: HKSampleSortIdentifierStartDate, ascending: true)
        let query = HKSampleQuery(sampleType: type, predicate: mine, limit: HKObjectQueryNoLimit, sortDescriptors: [oldestFirst]) { _, samples, _ in
            completion(samples as? [HKQuantitySample] ?? [])
        }
        healthStore.execute(query)
    }

    /// Deletes a whole batch; the completion gets how many entries went.
    func deleteBatch(_ name: String, completion: @escaping @Sendable (Int, Error?) -> Void) {
        let predicate = HKQuery.predicateForObjects(withMetadataKey: Self.batchKey, allowedValues: [name])
        healthStore.deleteObjects(of: type, predicate: predicate) { _, count, error in
            completion(count, error)
        }
    }

    /// Deletes this app's entries in a date range (HealthKit deletes only what the app saved).
    func deleteEntries(in interval: DateInterval, completion: @escaping @Sendable (Int, Error?) -> Void) {
        let predicate = HKQuery.predicateForSamples(withStart: interval.start, end: interval.end, options: .strictStartDate)
        healthStore.deleteObjects(of: type, predicate: predicate) { _, count, error in
            completion(count, error)
        }
    }

    func delete(_ sample: HKSample, completion: @escaping @Sendable (Bool, Error?) -> Void) {
        healthStore.delete(sample, withCompletion: completion)
    }

    /// What was deleted since the last call (the first call only sets the starting point), with the sync
    /// identifiers HealthKit keeps on deleted objects.
    func deletionsSinceLastCheck(completion: @escaping @Sendable ([UUID], [String]) -> Void) {
        let query = HKAnchoredObjectQuery(type: type, predicate: nil, anchor: lock.withLock { anchor }, limit: HKObjectQueryNoLimit) {
            [weak self] _, _, deleted, newAnchor, _ in
            self?.lock.withLock { self?.anchor = newAnchor }
            let objects = deleted ?? []
            completion(objects.map(\.uuid), objects.compactMap { $0.metadata?[HKMetadataKeySyncIdentifier] as? String }.sorted())
        }
        healthStore.execute(query)
    }
}
