// Porting corpus: the test double apps write for their view models: a subclass of HKHealthStore that answers
// authorization from a script, keeps what is saved in memory and records the queries it is asked to run, so the view
// model (HydrationViewModel.swift) can be tested without touching the person's data. It overrides the
// completion-handler forms, as HealthKit's own code calls them. Written for this suite; only the import is OpenHealthKit's.
#if canImport(HealthKit)
import HealthKit
#else
import OpenHealthKit
#endif

// @unchecked Sendable: Swift 6 asks a subclass to restate the store's unchecked Sendable conformance; the double is
// used from one task at a time.
final class MockHealthStore: HKHealthStore, @unchecked Sendable {
    var grantsAuthorization = true
    var saveError: Error?
    private(set) var requestedShareTypes: Set<HKSampleType> = []
    private(set) var requestedReadTypes: Set<HKObjectType> = []
    private(set) var savedObjects: [HKObject] = []
    private(set) var executedQueries: [HKQuery] = []
    private(set) var stoppedQueries: [HKQuery] = []
    private var statuses: [HKObjectType: HKAuthorizationStatus] = [:]

    override func authorizationStatus(for type: HKObjectType) -> HKAuthorizationStatus {
        statuses[type] ?? .notDetermined
    }

    override func requestAuthorization(toShare typesToShare: Set<HKSampleType>?, read typesToRead: Set<HKObjectType>?,
                                       completion: @escaping @Sendable (Bool, Error?) -> Void) {
        requestedShareTypes.formUnion(typesToShare ?? [])
        requestedReadTypes.formUnion(typesToRead ?? [])
        for type in typesToShare ?? [] {
            statuses[type] = grantsAuthorization ? .sharingAuthorized : .sharingDenied
        }
        completion(true, nil)
    }

    override func save(_ object: HKObject, withCompletion completion: @escaping (Bool, Error?) -> Void) {
        if let saveError = saveError {
            completion(false, saveError)
        } else {
            savedObjects.append(object)
            completion(true, nil)
        }
    }

    override func execute(_ query: HKQuery) {
        executedQueries.append(query)
    }

    override func stop(_ query: HKQuery) {
        stoppedQueries.append(query)
    }
}
