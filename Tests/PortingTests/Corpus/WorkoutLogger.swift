// Porting corpus: a workout logger for runs recorded elsewhere (a treadmill, a paper log), built with HKWorkoutBuilder in
// the completion-handler style: begin collection, add the distance and energy samples, the pause and resume events and
// metadata, end collection, finish; then the runs are read back with HKSampleQuery, and each run's own samples with
// HKQuery.predicateForObjects(from:). Written for this suite; only the import is OpenHealthKit's.
#if canImport(HealthKit)
import HealthKit
#else
import OpenHealthKit
#endif

final class WorkoutLogger: Sendable {
    struct Run: Sendable {
        var start: Date
        var end: Date
        /// Kilometre splits: where each kilometre ended.
        var splitEnds: [Date]
        var kilocalories: Double
        var pauses: [DateInterval] = []
        var indoor = false
    }

    enum LoggerError: Error {
        case failed(String)
    }

    let healthStore: HKHealthStore

    init(healthStore: HKHealthStore) {
        self.healthStore = healthStore
    }

    func requestAuthorization(completion: @escaping @Sendable (Bool, Error?) -> Void) {
        let typesToShare: Set<HKSampleType> = [
            HKObjectType.workoutType(),
            HKQuantityType.quantityType(forIdentifier: .distanceWalkingRunning)!,
            HKQuantityType.quantityType(forIdentifier: .activeEnergyBurned)!,
        ]
        let typesToRead: Set<HKObjectType> = typesToShare.union([HKSeriesType.workoutRoute()])
        healthStore.requestAuthorization(toShare: typesToShare, read: typesToRead, completion: completion)
    }

    func log(_ run: Run, completion: @escaping @Sendable (HKWorkout?, Error?) -> Void) {
        let configuration = HKWorkoutConfiguration()
        configuration.activityType = .running
        configuration.locationType = run.indoor ? .indoor : .outdoor
        let builder = HKWorkoutBuilder(healthStore: healthStore, configuration: configuration, device: .local())

        builder.beginCollection(withStart: run.start) { success, error in
            guard success else { return completion(nil, error) }
            builder.add(Self.samples(for: run)) { success, error in
                guard success else { return completion(nil, error) }
                var events: [HKWorkoutEvent] = []
                for pause in run.pauses {
                    events.append(HKWorkoutEvent(type: .pause, dateInterval: DateInterval(start: pause.start, duration: 0), metadata: nil))
                    events.append(HKWorkoutEvent(type: .resume, dateInterval: DateInterval(start: pause.end, duration: 0), metadata: nil))
                }
                builder.addWorkoutEvents(events) { success, error in
                    guard success else { return completion(nil, error) }
                    builder.addMetadata([HKMetadataKeyExternalUUID: "run-\(Int(run.start.timeIntervalSince1970))"]) { success, error in
                        guard success else { return completion(nil, error) }
                        builder.endCollection(withEnd: run.end) { success, error in
                            guard success else { return completion(nil, error) }
                            builder.finishWorkout { workout, error in
                                completion(workout, error)
                            }
                        }
                    }
                }
            }
        }
    }

    private static func samples(for run: Run) -> [HKSample] {
        let distanceType = HKQuantityType.quantityType(forIdentifier: .distanceWalkingRunning)!
        let energyType = HKQuantityType.quantityType(forIdentifier: .activeEnergyBurned)!
        var samples: [HKSample] = []
        var splitStart = run.start
        for splitEnd in run.splitEnds {
            let kilometre = HKQuantity(unit: .meterUnit(with: .kilo), doubleValue: 1)
            samples.append(HKQuantitySample(type: distanceType, quantity: kilometre, start: splitStart, end: splitEnd))
            splitStart = splitEnd
        }
        let energy = HKQuantity(unit: .kilocalorie(), doubleValue: run.kilocalories)
        samples.append(HKQuantitySample(type: energyType, quantity: energy, start: run.start, end: run.end))
        return samples
    }

    /// The runs in the store, newest first.
    func runs(completion: @escaping @Sendable ([HKWorkout], Error?) -> Void) {
        let predicate = HKQuery.predicateForWorkouts(with: .running)
        let newestFirst = NSSortDescriptor(key: HKSampleSortIdentifierStartDate, ascending: false)
        let query = HKSampleQuery(sampleType: .workoutType(), predicate: predicate, limit: HKObjectQueryNoLimit,
                                  sortDescriptors: [newestFirst]) { _, samples, error in
            completion(samples as? [HKWorkout] ?? [], error)
        }
        healthStore.execute(query)
    }

    /// The samples of `type` that belong to `workout`, in time order.
    func samples(of type: HKQuantityType, in workout: HKWorkout, completion: @escaping @Sendable ([HKQuantitySample], Error?) -> Void) {
        let predicate = HKQuery.predicateForObjects(from: workout)
        let oldestFirst = NSSortDescriptor(key: HKSampleSortIdentifierStartDate, ascending: true)
        let query = HKSampleQuery(sampleType: type, predicate: predicate, limit: HKObjectQueryNoLimit, sortDescriptors: [oldestFirst]) {
            _, samples, error in
            completion(samples as? [HKQuantitySample] ?? [], error)
        }
        healthStore.execute(query)
    }
}
