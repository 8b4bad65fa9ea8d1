public import Observation
public import OpenHealthKit

/// The state behind a "Health integration" settings screen, after Fit Records' authorization-management view:
/// given the types an app writes and reads, it works out — with public `HKHealthStore` calls only, so it runs
/// unchanged against a remote store — whether the person has decided, what they decided for each write type,
/// and whether types added since need another request.
///
/// ```swift
/// let model = HealthIntegrationModel(store: store,
///                                    writeTypes: [HKQuantityType(.activeEnergyBurned), .workoutType()],
///                                    readTypes: [HKQuantityType(.activeEnergyBurned), HKQuantityType(.heartRate)])
/// await model.refresh()
/// switch model.state {
/// case .notDetermined: showIntegrateButton()
/// case .determined(let types): showStatuses(types)
/// case .partiallyDetermined(let decided, let new): showStatuses(decided); offerAdditionalAccess(new)
/// case .loading, .healthDataNotAvailable: ...
/// }
/// ```
///
/// Reads cannot be told apart (HealthKit never says whether read was denied), so an app whose write types are
/// all denied looks "not integrated" whatever it may read — as the article accepts.
@MainActor
@Observable
public final class HealthIntegrationModel {
    /// Where the integration stands.
    public enum State: Hashable, Sendable {
        /// Health data is not available here, or its status could not be learned.
        case healthDataNotAvailable
        /// Not computed yet.
        case loading
        /// The person has not been asked about any of the types.
        case notDetermined
        /// The person decided every type; the status of each write type.
        case determined([WriteTypeStatus])
        /// The person decided some types, and others (added since) need a new request. `nonDeterminedWriteTypes`
        /// is empty when only new read types are pending.
        case partiallyDetermined(determinedWriteTypes: [WriteTypeStatus], nonDeterminedWriteTypes: [WriteTypeStatus])
    }

    /// One write type and the person's decision for it.
    public struct WriteTypeStatus: Hashable, Sendable, Identifiable {
        public let type: HKSampleType
        public let status: HKAuthorizationStatus
        public var id: String { type.identifier }
        public var isDetermined: Bool { status != .notDetermined }
        public var isAuthorized: Bool { status == .sharingAuthorized }
    }

    /// The current state; `.loading` until the first ``refresh()``.
    public private(set) var state: State = .loading

    public let writeTypes: [HKSampleType]
    public let readTypes: Set<HKObjectType>
    @ObservationIgnored private let store: HKHealthStore

    public init(store: HKHealthStore, writeTypes: [HKSampleType], readTypes: Set<HKObjectType>) {
        self.store = store
        self.writeTypes = writeTypes
        self.readTypes = readTypes
    }

    /// Recomputes the state; call it on appearing and when the app returns to the foreground (the person may
    /// have changed permissions in the Health app meanwhile).
    public func refresh() async {
        guard HKHealthStore.isHealthDataAvailable() else {
            state = .healthDataNotAvailable
            return
        }
        let statuses = writeTypes.map { WriteTypeStatus(type: $0, status: store.authorizationStatus(for: $0)) }
        let determined = statuses.filter(\.isDetermined), pending = statuses.filter { !$0.isDetermined }
        let requestStatus = (try? await store.statusForAuthorizationRequest(toShare: Set(writeTypes), read: readTypes)) ?? .unknown
        switch requestStatus {
        case .unnecessary:
            state = .determined(determined)
        case .shouldRequest:
            state = determined.isEmpty ? .notDetermined
                : .partiallyDetermined(determinedWriteTypes: determined, nonDeterminedWriteTypes: pending)
        default:
            state = .healthDataNotAvailable
        }
    }

    /// Asks for every type ("Integrate", or "Authorize Additional Access": only undecided types are shown to the
    /// person), then refreshes. Throws what the request throws, after refreshing.
    public func requestAuthorization() async throws {
        do {
            try await store.requestAuthorization(toShare: Set(writeTypes), read: readTypes)
        } catch {
            await refresh()
            throw error
        }
        await refresh()
    }

    /// Whether at least one write type is allowed: the integration is active. `false` before the person decided.
    public var isAtLeastOneWriteTypeAuthorized: Bool {
        switch state {
        case .determined(let types), .partiallyDetermined(let types, _): types.contains(where: \.isAuthorized)
        case .healthDataNotAvailable, .loading, .notDetermined: false
        }
    }
}
