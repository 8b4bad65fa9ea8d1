import Foundation

extension HKHealthStore {
    /// The delivery period this app asked for `type`, in seconds; nil for immediate delivery.
    func deliveryPeriod(for type: String) async throws -> Duration? {
        switch try await backend().backgroundDeliveryFrequency(for: type) {
        case .hourly: .seconds(3600)
        case .daily: .seconds(86_400)
        case .weekly: .seconds(604_800)
        case .immediate, nil: nil
        }
    }
}
