import Foundation
import HealthStore

extension HKHealthStore {
    /// A characteristic's stored integer code, when the app may read it.
    func characteristic(_ type: HKCharacteristicTypeIdentifier) throws -> Int? {
        try backend().characteristic(type).flatMap { Int($0) }
    }
}
