import HealthModel

extension HKHealthStore {
    /// The units the person prefers for these types. The person cannot set preferences yet, so each type
    /// gets the unit HealthKit documents for it (`count/s` for heart rate, `kg` for body mass…).
    public func preferredUnits(for quantityTypes: Set<HKQuantityType>) async throws -> [HKQuantityType: HKUnit] {
        _ = try service()  // a store that cannot be opened fails here, as every call does
        return Dictionary(uniqueKeysWithValues: quantityTypes.map { ($0, $0.canonicalUnit) })
    }

    /// Completion-handler form of ``preferredUnits(for:)``; the handler runs off the caller's thread.
    public func preferredUnits(
        for quantityTypes: Set<HKQuantityType>, completion: @escaping @Sendable ([HKQuantityType: HKUnit], (any Error)?) -> Void
    ) {
        Task.detached {
            do { completion(try await self.preferredUnits(for: quantityTypes), nil) } catch { completion([:], error) }
        }
    }
}
