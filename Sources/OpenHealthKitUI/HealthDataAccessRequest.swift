public import OpenHealthKit

/// HealthKitUI's `healthDataAccessRequest(store:shareTypes:readTypes:trigger:completion:)` without SwiftUI:
/// hold one, and each time its `trigger` changes to a different value it requests the types and passes the
/// outcome to `completion`, off the main actor. Types already decided complete at once without asking.
///
/// ```swift
/// let request = HealthDataAccessRequest(store: store, readTypes: healthDataTypes, trigger: false) { result in
///     if case .success = result { authenticated = true }
/// }
/// request.trigger.toggle()   // like `.onAppear { trigger.toggle() }`
/// ```
@MainActor
public final class HealthDataAccessRequest<Trigger: Equatable & Sendable> {
    public let store: HKHealthStore
    public let shareTypes: Set<HKSampleType>
    public let readTypes: Set<HKObjectType>
    private let completion: @Sendable (Result<Bool, any Error>) -> Void

    /// The value whose changes start a request. Setting it to an equal value does nothing.
    public var trigger: Trigger {
        didSet {
            guard trigger != oldValue else { return }
            let (store, share, read, completion) = (store, shareTypes, readTypes, completion)
            pending = Task.detached {
                do {
                    try await store.requestAuthorization(toShare: share, read: read)
                    completion(.success(true))
                } catch {
                    completion(.failure(error))
                }
            }
        }
    }

    /// The request started by the last change of `trigger`, if any; await its value to wait for the completion.
    public private(set) var pending: Task<Void, Never>?

    /// Requests permission to save and read the given types whenever `trigger` changes.
    public init(
        store: HKHealthStore, shareTypes: Set<HKSampleType>, readTypes: Set<HKObjectType>?, trigger: Trigger,
        completion: @escaping @Sendable (Result<Bool, any Error>) -> Void
    ) {
        self.store = store
        self.shareTypes = shareTypes
        self.readTypes = readTypes ?? []
        self.trigger = trigger
        self.completion = completion
    }

    /// Requests permission to read the given types whenever `trigger` changes.
    public convenience init(
        store: HKHealthStore, readTypes: Set<HKObjectType>, trigger: Trigger,
        completion: @escaping @Sendable (Result<Bool, any Error>) -> Void
    ) {
        self.init(store: store, shareTypes: [], readTypes: readTypes, trigger: trigger, completion: completion)
    }
}
