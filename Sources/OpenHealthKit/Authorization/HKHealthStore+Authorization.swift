import Foundation
import HealthStore

extension HKHealthStore {
    /// The app's permission to save objects of `type`. Read permission is never revealed, as in HealthKit.
    /// A store that cannot be opened reports `.notDetermined`.
    public func authorizationStatus(for type: HKObjectType) -> HKAuthorizationStatus {
        (try? service().shareStatus(app: configuration.app.bundleIdentifier, type: type.identifier)) ?? .notDetermined
    }

    /// Asks the person for access to the types not decided yet, through the configured presenter.
    /// Completes at once without asking when every type is already decided, or in guest mode.
    public func requestAuthorization(toShare typesToShare: Set<HKSampleType>, read typesToRead: Set<HKObjectType>) async throws {
        try await service().requestAuthorization(
            app: configuration.app, share: typesToShare, read: typesToRead, presenter: configuration.presenter)
    }

    /// Completion-handler form of ``requestAuthorization(toShare:read:)``; the handler runs off the caller's thread.
    public func requestAuthorization(
        toShare typesToShare: Set<HKSampleType>?, read typesToRead: Set<HKObjectType>?,
        completion: @escaping @Sendable (Bool, (any Error)?) -> Void
    ) {
        completeDetached(completion) {
            try await self.requestAuthorization(toShare: typesToShare ?? [], read: typesToRead ?? [])
        }
    }

    /// Whether requesting these types would show the person anything: `.shouldRequest` if any was never
    /// presented, `.unnecessary` otherwise.
    public func statusForAuthorizationRequest(toShare typesToShare: Set<HKSampleType>, read typesToRead: Set<HKObjectType>) async throws
        -> HKAuthorizationRequestStatus
    {
        try service().requestStatus(app: configuration.app.bundleIdentifier,
                                    share: Set(typesToShare.map(\.identifier)), read: Set(typesToRead.map(\.identifier)))
    }

    /// Completion-handler form of ``statusForAuthorizationRequest(toShare:read:)``: `.unknown` with the error on failure.
    public func getRequestStatusForAuthorization(
        toShare typesToShare: Set<HKSampleType>, read typesToRead: Set<HKObjectType>,
        completion: @escaping @Sendable (HKAuthorizationRequestStatus, (any Error)?) -> Void
    ) {
        Task.detached {
            do {
                completion(try await self.statusForAuthorizationRequest(toShare: typesToShare, read: typesToRead), nil)
            } catch {
                completion(.unknown, error)
            }
        }
    }
}
