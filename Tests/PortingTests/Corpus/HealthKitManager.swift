// Porting corpus: the app-wide manager many apps keep, in async/await, wrapping HealthKit's completion-handler API
// with checked continuations: authorization, saving body mass and height, the latest sample of a type, and a body
// mass index computed from them. Written for this suite; only the import is OpenHealthKit's.
#if canImport(HealthKit)
import HealthKit
#else
import OpenHealthKit
#endif

enum HealthKitManagerError: Error {
    case healthDataUnavailable
    case saveFailed
}

final class HealthKitManager {
    let healthStore: HKHealthStore

    private let bodyMassType = HKObjectType.quantityType(forIdentifier: .bodyMass)!
    private let heightType = HKObjectType.quantityType(forIdentifier: .height)!
    private let bodyMassIndexType = HKObjectType.quantityType(forIdentifier: .bodyMassIndex)!

    init(healthStore: HKHealthStore = HKHealthStore()) {
        self.healthStore = healthStore
    }

    /// Asks for the body measurements; true when the sheet was handled (not whether the person allowed anything).
    func requestAuthorization() async throws -> Bool {
        guard HKHealthStore.isHealthDataAvailable() else { throw HealthKitManagerError.healthDataUnavailable }
        let typesToShare: Set<HKSampleType> = [bodyMassType, heightType, bodyMassIndexType]
        let typesToRead: Set<HKObjectType> = [bodyMassType, heightType, bodyMassIndexType]
        return try await withCheckedThrowingContinuation { continuation in
            healthStore.requestAuthorization(toShare: typesToShare, read: typesToRead) { success, error in
                if let error = error {
                    continuation.resume(throwing: error)
                } else {
                    continuation.resume(returning: success)
                }
            }
        }
    }

    func saveBodyMass(kilograms: Double, date: Date = Date()) async throws {
        let quantity = HKQuantity(unit: HKUnit.gramUnit(with: .kilo), doubleValue: kilograms)
        try await save(HKQuantitySample(type: bodyMassType, quantity: quantity, start: date, end: date))
    }

    func saveHeight(centimeters: Double, date: Date = Date()) async throws {
        let quantity = HKQuantity(unit: HKUnit.meterUnit(with: .centi), doubleValue: centimeters)
        try await save(HKQuantitySample(type: heightType, quantity: quantity, start: date, end: date))
    }

    private func save(_ sample: HKSample) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, Error>) in
            healthStore.save(sample) { success, error in
                if let error = error {
                    continuation.resume(throwing: error)
                } else if !success {
                    continuation.resume(throwing: HealthKitManagerError.saveFailed)
                } else {
                    continuation.resume()
                }
            }
        }
    }

    /// The most recent sample of `type` the app may see, or nil.
    func latestSample(of type: HKQuantityType) async throws -> HKQuantitySample? {
        try await withCheckedThrowingContinuation { continuation in
            let newestFirst = NSSortDescriptor(key: HKSampleSortIdentifierEndDate, ascending: false)
            let query = HKSampleQuery(sampleType: type, predicate: nil, limit: 1, sortDescriptors: [newestFirst]) { _, samples, error in
                if let error = error {
                    continuation.resume(throwing: error)
                    return
                }
                continuation.resume(returning: samples?.first as? HKQuantitySample)
            }
            healthStore.execute(query)
        }
    }

    func latestBodyMass(in unit: HKUnit = .gramUnit(with: .kilo)) async throws -> Double? {
        try await latestSample(of: bodyMassType)?.quantity.doubleValue(for: unit)
    }

    func latestHeight(in unit: HKUnit = .meter()) async throws -> Double? {
        try await latestSample(of: heightType)?.quantity.doubleValue(for: unit)
    }

    /// Computes the body mass index from the latest weight and height, saves it, and returns it (nil when either is missing).
    func updateBodyMassIndex(at date: Date = Date()) async throws -> Double? {
        guard let kilograms = try await latestBodyMass(), let meters = try await latestHeight(), meters > 0 else { return nil }
        let bodyMassIndex = kilograms / (meters * meters)
        let quantity = HKQuantity(unit: HKUnit.count(), doubleValue: bodyMassIndex)
        try await save(HKQuantitySample(type: bodyMassIndexType, quantity: quantity, start: date, end: date))
        return bodyMassIndex
    }
}
