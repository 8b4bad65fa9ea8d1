// Porting corpus: a sync service that uploads what changed since its last run, keeping its HKQueryAnchor between
// runs with NSKeyedArchiver, as HealthKit apps do. Written for this suite; only the import is OpenHealthKit's.
#if canImport(HealthKit)
import HealthKit
#else
import OpenHealthKit
#endif

final class AnchoredSyncService: @unchecked Sendable {
    struct Batch {
        var added: [UUID] = []
        var deleted: [UUID] = []
    }

    private let healthStore: HKHealthStore
    private let anchorFile: URL
    private let type: HKSampleType

    init(healthStore: HKHealthStore, anchorFile: URL, type: HKSampleType = HKQuantityType(.bodyMass)) {
        self.healthStore = healthStore
        self.anchorFile = anchorFile
        self.type = type
    }

    private var savedAnchor: HKQueryAnchor? {
        get {
            guard let data = try? Data(contentsOf: anchorFile) else { return nil }
            return try? NSKeyedUnarchiver.unarchivedObject(ofClass: HKQueryAnchor.self, from: data)
        }
        set {
            guard let anchor = newValue,
                  let data = try? NSKeyedArchiver.archivedData(withRootObject: anchor, requiringSecureCoding: true) else { return }
            try? data.write(to: anchorFile, options: .atomic)
        }
    }

    /// What changed since the last sync; the anchor is saved once the batch is handed over.
    func sync() async throws -> Batch {
        try await withCheckedThrowingContinuation { continuation in
            let query = HKAnchoredObjectQuery(type: type, predicate: nil, anchor: savedAnchor, limit: HKObjectQueryNoLimit) {
                [weak self] _, samples, deleted, newAnchor, error in
                if let error { return continuation.resume(throwing: error) }
                let batch = Batch(added: (samples ?? []).map(\.uuid), deleted: (deleted ?? []).map(\.uuid))
                self?.savedAnchor = newAnchor
                continuation.resume(returning: batch)
            }
            healthStore.execute(query)
        }
    }
}
