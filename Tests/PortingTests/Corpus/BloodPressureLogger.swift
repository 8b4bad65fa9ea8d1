// Porting corpus: a blood-pressure and meal logger with correlations: HKCorrelation of systolic and diastolic samples
// (and of a meal's nutrients), saved together, read back with HKCorrelationQuery, filtered by a sample predicate on
// one of the correlated types, and taken apart with objects(for:). Written for this suite; only the import is
// OpenHealthKit's.
//
// PORTING NOTE: as first written, the app's own completion handlers were plain `@escaping (…) -> Void`, as older apps
// have them, called from inside `save(_:withCompletion:)` and `HKCorrelationQuery`'s handler. HealthKit accepts that:
// those two handler parameters are not @Sendable in its headers (only requestAuthorization's is). OpenHealthKit declares
// every handler @Sendable, so Swift 6 rejected each capture with "capture of 'completion' with non-Sendable type
// '(Bool, (any Error)?) -> Void' in a '@Sendable' closure". The porter's change: the app's handlers are @Sendable too.
#if canImport(HealthKit)
import HealthKit
#else
import OpenHealthKit
#endif

final class BloodPressureLogger {
    struct Reading: Equatable {
        let date: Date
        let systolic: Double
        let diastolic: Double
    }

    struct Meal: Equatable {
        let name: String
        let kilocalories: Double
        let proteinGrams: Double
    }

    let healthStore: HKHealthStore
    private let systolicType = HKQuantityType.quantityType(forIdentifier: .bloodPressureSystolic)!
    private let diastolicType = HKQuantityType.quantityType(forIdentifier: .bloodPressureDiastolic)!
    private let bloodPressureType = HKCorrelationType.correlationType(forIdentifier: .bloodPressure)!
    private let energyType = HKQuantityType.quantityType(forIdentifier: .dietaryEnergyConsumed)!
    private let proteinType = HKQuantityType.quantityType(forIdentifier: .dietaryProtein)!
    private let foodType = HKCorrelationType.correlationType(forIdentifier: .food)!

    init(healthStore: HKHealthStore) {
        self.healthStore = healthStore
    }

    /// HealthKit authorizes the correlated quantity types, never the correlation types themselves. (This handler is
    /// @Sendable in HealthKit, so the app's must be too; the others are not.)
    func requestAuthorization(completion: @escaping @Sendable (Bool, Error?) -> Void) {
        let types: Set<HKSampleType> = [systolicType, diastolicType, energyType, proteinType]
        healthStore.requestAuthorization(toShare: types, read: types) { success, error in
            completion(success, error)
        }
    }

    func log(systolic: Double, diastolic: Double, at date: Date, completion: @escaping @Sendable (Bool, Error?) -> Void) {
        let millimetersOfMercury = HKUnit.millimeterOfMercury()
        let systolicSample = HKQuantitySample(type: systolicType, quantity: HKQuantity(unit: millimetersOfMercury, doubleValue: systolic),
                                              start: date, end: date)
        let diastolicSample = HKQuantitySample(type: diastolicType, quantity: HKQuantity(unit: millimetersOfMercury, doubleValue: diastolic),
                                               start: date, end: date)
        let correlation = HKCorrelation(type: bloodPressureType, start: date, end: date, objects: [systolicSample, diastolicSample])
        healthStore.save(correlation) { success, error in
            completion(success, error)
        }
    }

    func log(_ meal: Meal, at date: Date, completion: @escaping @Sendable (Bool, Error?) -> Void) {
        let metadata: [String: Any] = [HKMetadataKeyFoodType: meal.name]
        let energy = HKQuantitySample(type: energyType, quantity: HKQuantity(unit: .kilocalorie(), doubleValue: meal.kilocalories),
                                      start: date, end: date, metadata: metadata)
        let protein = HKQuantitySample(type: proteinType, quantity: HKQuantity(unit: .gram(), doubleValue: meal.proteinGrams),
                                       start: date, end: date, metadata: metadata)
        let food = HKCorrelation(type: foodType, start: date, end: date, objects: [energy, protein], metadata: metadata)
        healthStore.save(food) { success, error in
            completion(success, error)
        }
    }

    /// Readings, oldest first; with `systolicAtLeast`, only those whose systolic value is at least that.
    func readings(systolicAtLeast threshold: Double? = nil, completion: @escaping @Sendable ([Reading]) -> Void) {
        var samplePredicates: [HKSampleType: NSPredicate]?
        if let threshold = threshold {
            let high = HKQuantity(unit: .millimeterOfMercury(), doubleValue: threshold)
            samplePredicates = [systolicType: HKQuery.predicateForQuantitySamples(with: .greaterThanOrEqualTo, quantity: high)]
        }
        let systolicType = self.systolicType, diastolicType = self.diastolicType
        let query = HKCorrelationQuery(type: bloodPressureType, predicate: nil, samplePredicates: samplePredicates) { _, correlations, _ in
            let readings = (correlations ?? []).compactMap { correlation -> Reading? in
                guard let systolic = correlation.objects(for: systolicType).first as? HKQuantitySample,
                      let diastolic = correlation.objects(for: diastolicType).first as? HKQuantitySample else { return nil }
                return Reading(date: correlation.startDate,
                               systolic: systolic.quantity.doubleValue(for: .millimeterOfMercury()),
                               diastolic: diastolic.quantity.doubleValue(for: .millimeterOfMercury()))
            }
            completion(readings.sorted { $0.date < $1.date })
        }
        healthStore.execute(query)
    }

    /// The meals logged in an interval.
    func meals(in interval: DateInterval, completion: @escaping @Sendable ([Meal]) -> Void) {
        let predicate = HKQuery.predicateForSamples(withStart: interval.start, end: interval.end)
        let energyType = self.energyType, proteinType = self.proteinType
        let query = HKCorrelationQuery(type: foodType, predicate: predicate, samplePredicates: nil) { _, correlations, _ in
            let meals = (correlations ?? []).sorted { $0.startDate < $1.startDate }.map { food -> Meal in
                let energy = food.objects(for: energyType).first as? HKQuantitySample
                let protein = food.objects(for: proteinType).first as? HKQuantitySample
                return Meal(name: food.metadata?[HKMetadataKeyFoodType] as? String ?? "",
                            kilocalories: energy?.quantity.doubleValue(for: .kilocalorie()) ?? 0,
                            proteinGrams: protein?.quantity.doubleValue(for: .gram()) ?? 0)
            }
            completion(meals)
        }
        healthStore.execute(query)
    }
}
