import Foundation
import HealthAPI
import HealthModel
import HealthStore
import OpenHealthKit

/// Background delivery as an app asks for it: per type, how often its observer queries may be woken, kept in the store
/// with the app's other settings and honoured by the remote store's observers as by embedded ones; and the callback URL
/// the daemon delivers the changes of those types to (``BackgroundDeliverer``).
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

    // MARK: - The callback URL

    /// Sets the app's callback URL and gives it the secret its deliveries are signed with, this once.
    func setDeliveryCallback(_ input: Operations.SetDeliveryCallback.Input) async throws -> Operations.SetDeliveryCallback.Output {
        let body = switch input.body { case .json(let body): body }   // the only content type; others are 415 before here
        let url = try CallbackURL.validated(body.url, hosts: callbackHosts)
        return try await logged("setDeliveryCallback", attempted: [:]) { store in
            let app = store.configuration.app.bundleIdentifier
            let secret = try BackgroundDeliveryQueue(samples: store.sampleStore()).setCallback(app: app, url: url)
            deliveries.poke()   // changes waiting for a callback go now
            let hex = secret.map { String(format: "%02x", $0) }.joined()
            return (.ok(.init(body: .json(.init(url: url.absoluteString, secret: hex)))), [:])
        }
    }

    func getDeliveryCallback(_ input: Operations.GetDeliveryCallback.Input) async throws -> Operations.GetDeliveryCallback.Output {
        try await logged("getDeliveryCallback", attempted: [:]) { store in
            guard let callback = try BackgroundDeliveryQueue(samples: store.sampleStore()).callback(app: store.configuration.app.bundleIdentifier)
            else {
                throw Problem(.notFound, "no callback", detail: "this app has set no callback URL (PUT /v1/background-delivery-callback)")
            }
            return (.ok(.init(body: .json(.init(url: callback.url.absoluteString)))), [:])
        }
    }

    func removeDeliveryCallback(_ input: Operations.RemoveDeliveryCallback.Input) async throws -> Operations.RemoveDeliveryCallback.Output {
        try await logged("removeDeliveryCallback", attempted: [:]) { store in
            try BackgroundDeliveryQueue(samples: store.sampleStore()).removeCallback(app: store.configuration.app.bundleIdentifier)
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
