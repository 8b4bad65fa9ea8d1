import Foundation
import HealthStore

extension HKHealthStore {
    /// A characteristic's stored integer code, when the app may read it.
    func characteristic(_ type: HKCharacteristicTypeIdentifier) throws -> Int? {
        try characteristicStore().value(type, visibleTo: configuration.app.bundleIdentifier).flatMap { Int($0) }
    }
}
