import Foundation
import OpenHealthKit
import Testing

private let distance = HKQuantityType(.distanceWalkingRunning)
private let energy = HKQuantityType(.activeEnergyBurned)
private let heartRate = HKQuantityType(.heartRate)
private let systolic = HKQuantityType(.bloodPressureSystolic)
private let diastolic = HKQuantityType(.bloodPressureDiastolic)
private let bloodPressure = HKCorrelationType(.bloodPressure)
private let workouts = HKObjectType.workoutType()
private let start = Date(timeIntervalSinceReferenceDate: 810_000_000.25)
private let bpm = HKUnit(from: "count/min")
private let mmHg = HKUnit.millimeterOfMercury()

private func quantity(_ type: HKQuantityType, _ value: Double, _ unit: HKUnit, from: TimeInterval, to: TimeInterval) -> HKQuantitySample {
    HKQuantitySample(type: type, quantity: HKQuantity(unit: unit, doubleValue: value), start: start.addingTimeInterval(from), end: start.addingTimeInterval(to))
}

private func query(_ store: HKHealthStore, _ type: HKSampleType, _ predicate: NSPredicate? = nil,
                   sort: [SortDescriptor<HKSample>] = [SortDescriptor(\.startDate)]) async throws -> [HKSample] {
    try await HKSampleQueryDescriptor(predicates: [.sample(type: type, predicate: predicate)], sortDescriptors: sort).result(for: store)
}

private func run(_ location: HKWorkoutSessionLocationType = .outdoor) -> HKWorkoutConfiguration {
    let configuration = HKWorkoutConfiguration()
    configuration.activityType = .running
    configuration.locationType = location
    return configuration
}

/// Workouts (built with `HKWorkoutBuilder` or made whole) and correlations on both backends: an app reads back what
/// it saved, field for field, finds the samples associated with a workout, and queries correlations by their members.
@Suite("Workouts and correlations on both backends")
struct WorkoutsAndCorrelationsTests {
    @Test(arguments: Backend.allCases)
    func aBuiltWorkoutComesBackWithItsActivitiesEventsStatisticsAndSamples(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let store = try await session.app(.steps, answering: .allowAll)
            try await store.requestAuthorization(toShare: [workouts, distance, energy, heartRate], read: [workouts, distance, energy, heartRate])
            let builder = HKWorkoutBuilder(healthStore: store, configuration: run(), device: nil)
            try await builder.beginCollection(at: start)
            let warmUp = HKWorkoutActivity(workoutConfiguration: run(.indoor), start: start, end: nil, metadata: ["zone": 1])
            try await builder.addWorkoutActivity(warmUp)
            try await builder.updateActivity(uuid: warmUp.uuid, end: start.addingTimeInterval(600))
            let main = HKWorkoutActivity(workoutConfiguration: run(), start: start.addingTimeInterval(600), end: nil, metadata: nil)
            try await builder.addWorkoutActivity(main)
            let samples = [
                quantity(distance, 1200, .meter(), from: 0, to: 600), quantity(distance, 1.3, .meterUnit(with: .kilo), from: 900, to: 1500),
                quantity(energy, 90, .kilocalorie(), from: 0, to: 600), quantity(heartRate, 150, bpm, from: 300, to: 300),
                quantity(heartRate, 170, bpm, from: 1200, to: 1200),
            ]
            try await builder.addSamples(samples)
            try await builder.addWorkoutEvents([
                HKWorkoutEvent(type: .pause, dateInterval: DateInterval(start: start.addingTimeInterval(600), duration: 0), metadata: nil),
                HKWorkoutEvent(type: .resume, dateInterval: DateInterval(start: start.addingTimeInterval(900), duration: 0), metadata: nil),
                HKWorkoutEvent(type: .segment, dateInterval: DateInterval(start: start.addingTimeInterval(900), duration: 300), metadata: ["km": 2]),
            ])
            try await builder.addMetadata(["plan": "tempo"])
            try await builder.updateActivity(uuid: main.uuid, end: start.addingTimeInterval(1500))
            try await builder.endCollection(at: start.addingTimeInterval(1500))
            let built = try #require(try await builder.finishWorkout())

            let saved = try #require(try await query(store, workouts).first as? HKWorkout)
            #expect(saved.uuid == built.uuid && saved.startDate == built.startDate && saved.endDate == built.endDate)
            #expect(saved.workoutActivityType == .running && saved.duration == built.duration && saved.duration == 1200)
            #expect(saved.workoutEvents?.map(\.type) == built.workoutEvents?.map(\.type))
            #expect(saved.workoutEvents?.map(\.dateInterval) == built.workoutEvents?.map(\.dateInterval))
            #expect(saved.workoutEvents?.last?.metadata?["km"] as? Int == 2)
            #expect(saved.totalDistance?.doubleValue(for: .meter()) == 2500)
            #expect(saved.totalEnergyBurned == built.totalEnergyBurned)
            #expect(saved.statistics(for: heartRate)?.maximumQuantity()?.doubleValue(for: bpm) == 170)
            #expect(saved.metadata?["plan"] as? String == "tempo")
            #expect(saved.sourceRevision.source.bundleIdentifier == "com.example.steps")
            #expect(saved.workoutActivities.map(\.uuid) == [warmUp.uuid, main.uuid])
            let first = try #require(saved.workoutActivities.first)
            #expect(first.workoutConfiguration.locationType == .indoor && first.endDate == start.addingTimeInterval(600))
            #expect(first.metadata?["zone"] as? Int == 1)
            #expect(first.statistics(for: distance)?.sumQuantity() == built.workoutActivities.first?.statistics(for: distance)?.sumQuantity())

            // The samples saved with it are found by it; workouts by their activity type and duration.
            let associated = try await query(store, distance, HKQuery.predicateForObjects(from: saved))
            #expect(Set(associated.map(\.uuid)) == Set(samples.prefix(2).map(\.uuid)))
            #expect(try await query(store, workouts, HKQuery.predicateForWorkouts(with: .running)).count == 1)
            #expect(try await query(store, workouts, HKQuery.predicateForWorkouts(with: .cycling)).isEmpty)
            #expect(try await query(store, workouts, HKQuery.predicateForWorkouts(with: .greaterThan, duration: 1300)).isEmpty)
        }
    }

    @Test(arguments: Backend.allCases)
    func aWholeWorkoutIsSavedAndSamplesAreAddedOnlyToTheAppsOwn(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let other = try await session.app(.other, answering: .allowAll)
            try await other.requestAuthorization(toShare: [workouts], read: [])
            let theirs = HKWorkout(activityType: .cycling, start: start, end: start.addingTimeInterval(3600))
            try await other.save(theirs)

            let store = try await session.app(.steps, answering: .allowAll)
            try await store.requestAuthorization(toShare: [workouts, energy], read: [workouts, energy])
            let ride = HKWorkout(activityType: .cycling, start: start, end: start.addingTimeInterval(1800), duration: 1500,
                                 totalEnergyBurned: HKQuantity(unit: .kilocalorie(), doubleValue: 300),
                                 totalDistance: HKQuantity(unit: .meterUnit(with: .kilo), doubleValue: 12), metadata: ["bike": "road"])
            try await store.save(ride)
            let burn = quantity(energy, 300, .kilocalorie(), from: 0, to: 1800)
            try await store.addSamples([burn], to: ride)
            #expect(try await query(store, energy, HKQuery.predicateForObjects(from: ride)).map(\.uuid) == [burn.uuid])

            let back = try await query(store, workouts, sort: [SortDescriptor(\.startDate), SortDescriptor(\HKSample.endDate)])
            #expect(back.map(\.uuid) == [ride.uuid, theirs.uuid])
            let saved = try #require(back.first as? HKWorkout)
            #expect(saved.duration == 1500 && saved.totalDistance == ride.totalDistance && saved.totalEnergyBurned == ride.totalEnergyBurned)
            #expect(saved.workoutEvents == nil && saved.workoutActivities.isEmpty && saved.metadata?["bike"] as? String == "road")

            let refusal = await #expect(throws: HKError.self) { try await store.addSamples([quantity(energy, 5, .kilocalorie(), from: 0, to: 60)], to: theirs) }
            #expect(refusal?.code == .errorAuthorizationDenied)
            #expect(try await query(store, energy).count == 1, "nothing of the refused call was saved")
        }
    }

    @Test(arguments: Backend.allCases)
    func correlationsComeBackWithTheirSamplesAndAreFoundByTheirMembers(_ backend: Backend) async throws {
        try await AppSession.with(backend) { session in
            let store = try await session.app(.steps, answering: .allowAll)
            try await store.requestAuthorization(toShare: [systolic, diastolic], read: [systolic, diastolic])
            func reading(_ high: Double, _ low: Double, at minutes: Double) -> HKCorrelation {
                let when = start.addingTimeInterval(minutes * 60)
                return HKCorrelation(type: bloodPressure, start: when, end: when, objects: [
                    HKQuantitySample(type: systolic, quantity: HKQuantity(unit: mmHg, doubleValue: high), start: when, end: when),
                    HKQuantitySample(type: diastolic, quantity: HKQuantity(unit: mmHg, doubleValue: low), start: when, end: when),
                ], metadata: ["arm": "left"])
            }
            let calm = reading(118, 76, at: 0), high = reading(142, 91, at: 10)
            try await store.save([calm, high])

            let back = try await query(store, bloodPressure).compactMap { $0 as? HKCorrelation }
            #expect(back.map(\.uuid) == [calm.uuid, high.uuid])
            let first = try #require(back.first)
            #expect(Set(first.objects.map(\.uuid)) == Set(calm.objects.map(\.uuid)) && first.metadata?["arm"] as? String == "left")
            let top = try #require(first.objects(for: systolic).first as? HKQuantitySample)
            #expect(top.quantity.doubleValue(for: mmHg) == 118 && top.sourceRevision.source.bundleIdentifier == "com.example.steps")
            #expect(try await query(store, systolic).count == 2, "the members are samples of their own types too")

            let raised = HKQuery.predicateForQuantitySamples(with: .greaterThan, quantity: HKQuantity(unit: mmHg, doubleValue: 130))
            let found = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[HKCorrelation], any Error>) in
                store.execute(HKCorrelationQuery(type: bloodPressure, predicate: nil, samplePredicates: [systolic: raised]) { _, found, error in
                    if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: found ?? []) }
                })
            }
            #expect(found.map(\.uuid) == [high.uuid])
            #expect(Set(found.first?.objects.map(\.uuid) ?? []) == Set(high.objects.map(\.uuid)))
        }
    }
}

/// What an app sends as a workout or a correlation that HealthKit's initializers would refuse: a 400 naming the field.
@Suite("The daemon: workouts and correlations on the wire")
struct WorkoutWireTests {
    static let workout = #"{"uuid":"6F9619FF-8B86-D011-B42D-00C04FC964FF","type":"HKWorkoutTypeIdentifier","startDate":"2026-11-24T10:00:00Z","endDate":"2026-11-24T11:00:00Z","workout":{"activityType":37,"duration":3600}}"#
    static let pressure = #"{"uuid":"7F9619FF-8B86-D011-B42D-00C04FC964FF","type":"HKCorrelationTypeIdentifierBloodPressure","startDate":"2026-11-24T10:00:00Z","endDate":"2026-11-24T10:00:00Z","objects":[{"uuid":"8F9619FF-8B86-D011-B42D-00C04FC964FF","type":"HKQuantityTypeIdentifierBloodPressureSystolic","startDate":"2026-11-24T10:00:00Z","endDate":"2026-11-24T10:00:00Z","quantity":{"value":120,"unit":"mmHg"}},{"uuid":"9F9619FF-8B86-D011-B42D-00C04FC964FF","type":"HKQuantityTypeIdentifierBloodPressureDiastolic","startDate":"2026-11-24T10:00:00Z","endDate":"2026-11-24T10:00:00Z","quantity":{"value":80,"unit":"mmHg"}}]}"#

    @Test(arguments: [
        (workout.replacingOccurrences(of: #""activityType":37"#, with: #""activityType":99999"#), "/samples/0/workout/activityType"),
        (workout.replacingOccurrences(of: #""duration":3600"#, with: #""duration":3600,"events":[{"type":1,"startDate":"2026-11-24T12:00:00Z","endDate":"2026-11-24T12:00:00Z"}]"#),
         "/samples/0"),
        (workout.replacingOccurrences(of: #""duration":3600"#, with: #""duration":3600,"events":[{"type":42,"startDate":"2026-11-24T10:00:00Z","endDate":"2026-11-24T10:00:00Z"}]"#),
         "/samples/0/workout/events/0/type"),
        (workout.replacingOccurrences(of: #""duration":3600"#, with: #""duration":3600,"statistics":[{"type":"HKQuantityTypeIdentifierActiveEnergyBurned","statistics":{"startDate":"2026-11-24T10:00:00Z","endDate":"2026-11-24T11:00:00Z","sum":{"value":5,"unit":"m"}}}]"#),
         "/samples/0"),
        (workout.replacingOccurrences(of: #""duration":3600"#, with: #""duration":3600,"activities":[{"uuid":"1F9619FF-8B86-D011-B42D-00C04FC964FF","configuration":{"activityType":37},"startDate":"2026-11-24T09:00:00Z"}]"#),
         "/samples/0"),
        (workout.replacingOccurrences(of: #","workout":{"activityType":37,"duration":3600}"#, with: ""), "/samples/0/workout"),
        (pressure.replacingOccurrences(of: "BloodPressureDiastolic", with: "StepCount").replacingOccurrences(of: #""value":80,"unit":"mmHg""#, with: #""value":80,"unit":"count""#),
         "/samples/0"),
        (pressure.replacingOccurrences(of: #","objects":["#, with: #","value":1,"objects":["#), "/samples/0/value"),
    ])
    func aWorkoutOrCorrelationHealthKitWouldRefuseIs400AndNothingIsSaved(body: String, field: String) async throws {
        try await DaemonHarness.with { daemon in
            let types: [HKObjectType] = [workouts, systolic, diastolic, HKQuantityType(.stepCount), energy]
            let token = try await daemon.connect("com.example.log", share: types, read: types)
            let answer = try await daemon.raw(.POST, "/v1/objects", body: #"{"samples":[\#(body)]}"#, token: token)
            #expect(answer.status == 400, "\(answer.body)")
            #expect(answer.json["field"] as? String == field, "\(answer.body)")
            #expect(answer.json["code"] as? Int == HKError.Code.errorInvalidArgument.rawValue)
            for type in ["HKWorkoutTypeIdentifier", "HKCorrelationTypeIdentifierBloodPressure", "HKQuantityTypeIdentifierBloodPressureSystolic"] {
                let stored = try await daemon.raw(.POST, "/v1/queries/samples", body: #"{"type":"\#(type)"}"#, token: token)
                #expect(stored.body == #"{"samples":[]}"#)
            }
        }
    }

    @Test func aValidWorkoutAndCorrelationAreSaved() async throws {
        try await DaemonHarness.with { daemon in
            let types: [HKObjectType] = [workouts, systolic, diastolic]
            let token = try await daemon.connect("com.example.log", share: types, read: types)
            let answer = try await daemon.raw(.POST, "/v1/objects", body: #"{"samples":[\#(Self.workout),\#(Self.pressure)]}"#, token: token)
            #expect(answer.status == 204, "\(answer.body)")
            let back = try await daemon.raw(.POST, "/v1/queries/samples", body: #"{"type":"HKWorkoutTypeIdentifier"}"#, token: token)
            #expect(back.body.contains(#""workout":{"activityType":37,"duration":3600}"#), "\(back.body)")
        }
    }
}
