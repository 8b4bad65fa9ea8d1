import Foundation
import HealthAPI
import HealthModel
import OpenHealthKit

/// Background delivery as an app asks for it: per type, how often its observer queries may be woken, kept in the store
/// with the app's other settings and honoured by the remote store's observers as by embedded ones.
extension HealthAPIService {
    func enableBackgroundDelivery(_ input: Operations.EnableBackgroundDelivery.Input) async throws -> Operations.EnableBackgroundDelivery.Output {
        let body = switch input.body { case .json(let body): body }   // the only content type; others are 415 before here
        let type = try Self.sampleType(input.path.identifier)
        let frequency: HKUpdateFrequency = switch body.frequency {
        case .immediate: .immediate
        case .hourly: .hourly
        case .daily: .daily
        case .weekly: .weekly
        }
        return try await logged("enableBackgroundDelivery", attempted: [type.identifier: 0]) { store in
            try await store.backend().enableBackgroundDelivery(for: type, frequency: frequency)
            return (.noContent, [type.identifier: 0])
        }
    }

    func backgroundDeliveryFrequency(_ input: Operations.BackgroundDeliveryFrequency.Input) async throws
        -> Operations.BackgroundDeliveryFrequency.Output
    {
        let type = try Self.sampleType(input.path.identifier)
        let app = try CallingApp.required()
        let frequency: Components.Schemas.BackgroundDeliveryState.FrequencyPayload? =
            switch try await stores.store(for: app).backend().backgroundDeliveryFrequency(for: type.identifier) {
            case .immediate?: .immediate
            case .hourly?: .hourly
            case .daily?: .daily
            case .weekly?: .weekly
            case nil: nil
            }
        return .ok(.init(body: .json(.init(frequency: frequency))))
    }

    func disableBackgroundDelivery(_ input: Operations.DisableBackgroundDelivery.Input) async throws -> Operations.DisableBackgroundDelivery.Output {
        let type = try Self.sampleType(input.path.identifier)
        return try await logged("disableBackgroundDelivery", attempted: [type.identifier: 0]) { store in
            try await store.backend().disableBackgroundDelivery(for: type)
            return (.noContent, [type.identifier: 0])
        }
    }

    func disableAllBackgroundDelivery(_ input: Operations.DisableAllBackgroundDelivery.Input) async throws
        -> Operations.DisableAllBackgroundDelivery.Output
    {
        try await logged("disableBackgroundDelivery", attempted: [:]) { store in
            try await store.backend().disableBackgroundDelivery(for: nil)
            return (.noContent, [:])
        }
    }

    /// The sample type a path names, or a 400 naming the path's identifier.
    private static func sampleType(_ identifier: String) throws -> HKSampleType {
        guard let type = HKObjectType.type(forIdentifier: identifier) as? HKSampleType else {
            throw unknownType(identifier, at: "/path/identifier", kind: "sample type")
        }
        return type
    }
}
