public import Foundation
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
///
/// The seed's per-object form (`healthDataAccessRequest(store:objectType:predicate:trigger:completion:)`) asks, on each
/// change, which objects of a type read object by object (vision prescriptions) the app may read: the person is always
/// asked, as HealthKit always shows that sheet.
@MainActor
public final class HealthDataAccessRequest<Trigger: Equatable & Sendable> {
    public let store: HKHealthStore
    public let shareTypes: Set<HKSampleType>
    public let readTypes: Set<HKObjectType>
    /// The type read object by object this request asks about (the per-object form), else nil.
    public let objectType: HKObjectType?
    /// The predicate that restricts the objects put before the person (the per-object form).
    public var predicate: NSPredicate? { boxedPredicate.predicate }
    private let boxedPredicate: PredicateBox
    private let completion: @Sendable (Result<Bool, any Error>) -> Void

    /// An `NSPredicate`, immutable once made, carried into the request's task.
    private struct PredicateBox: @unchecked Sendable { let predicate: NSPredicate? }

    /// The value whose changes start a request. Setting it to an equal value does nothing.
    public var trigger: Trigger {
        didSet {
            guard trigger != oldValue else { return }
            let (store, share, read, completion) = (store, shareTypes, readTypes, completion)
            let (objectType, predicate) = (objectType, boxedPredicate)
            pending = Task.detached {
                do {
                    if let objectType {
                        try await store.requestPerObjectReadAuthorization(for: objectType, predicate: predicate.predicate)
                    } else {
                        try await store.requestAuthorization(toShare: share, read: read)
                    }
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
        objectType = nil
        boxedPredicate = PredicateBox(predicate: nil)
        self.trigger = trigger
        self.completion = completion
    }

    /// Asks which objects of `objectType` (a type that requires per-object authorization, such as
    /// `HKObjectType.visionPrescriptionType()`) matching `predicate` the app may read, whenever `trigger` changes.
    public init(
        store: HKHealthStore, objectType: HKObjectType, predicate: NSPredicate? = nil, trigger: Trigger,
        completion: @escaping @Sendable (Result<Bool, any Error>) -> Void
    ) {
        self.store = store
        shareTypes = []
        readTypes = []
        self.objectType = objectType
        boxedPredicate = PredicateBox(predicate: predicate)
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
