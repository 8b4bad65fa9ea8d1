import Foundation
import HealthStore

extension HKHealthStore {
    /// Asks to be woken for changes to `type` at most this often. The request is kept in the store (it outlives
    /// the process, as in HealthKit) and observer queries of this app honour it: with `.hourly`, `.daily` or
    /// `.weekly`, an observer fires at most once per period and holds later changes until the period ends;
    /// with `.immediate` (or nothing enabled) it fires for every change.
    public func enableBackgroundDelivery(for type: HKObjectType, frequency: HKUpdateFrequency) async throws {
        try BackgroundDeliveryStore(database: sampleStore().database).enable(app: configuration.app.bundleIdentifier, type: type, frequency: frequency)
    }

    public func enableBackgroundDelivery(for type: HKObjectType, frequency: HKUpdateFrequency,
                                         withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        completeDetached(completion) { try await self.enableBackgroundDelivery(for: type, frequency: frequency) }
    }

    /// Stops background delivery for `type`.
    public func disableBackgroundDelivery(for type: HKObjectType) async throws {
        try BackgroundDeliveryStore(database: sampleStore().database).disable(app: configuration.app.bundleIdentifier, type: type)
    }

    public func disableBackgroundDelivery(for type: HKObjectType, withCompletion completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        completeDetached(completion) { try await self.disableBackgroundDelivery(for: type) }
    }

    /// Stops background delivery for every type.
    public func disableAllBackgroundDelivery() async throws {
        try BackgroundDeliveryStore(database: sampleStore().database).disableAll(app: configuration.app.bundleIdentifier)
    }

    public func disableAllBackgroundDelivery(completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        completeDetached(completion) { try await self.disableAllBackgroundDelivery() }
    }

    /// The delivery period this app asked for `type`, in seconds; nil for immediate delivery.
    func deliveryPeriod(for type: String) throws -> Duration? {
        switch try BackgroundDeliveryStore(database: sampleStore().database).frequency(app: configuration.app.bundleIdentifier, type: type) {
        case .hourly: .seconds(3600)
        case .daily: .seconds(86_400)
        case .weekly: .seconds(604_800)
        case .immediate, nil: nil
        }
    }
}
