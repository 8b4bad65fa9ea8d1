import Foundation
import Testing
import TestSupport
@testable import OpenHealthKit

private let day0 = Date(timeIntervalSinceReferenceDate: 815_443_200)  // 2026-11-04 00:00:00 UTC

/// The privacy rule as a property, against a model of it written without the engine: random apps save, delete and
/// query while the person grants, revokes and turns guest mode on and off, and impostors try to register; after
/// every step, every answer an app gets — samples, statistics, collections, sources, anchored changes and
/// deletions, correlations, authorization status, counts of deletions, and every error — is what the model says
/// that app may know. It runs on both backends: the apps' stores opened in this process, and apps reaching
/// `health serve` with their tokens while the person changes the same store. Workouts and their effort scores are in it
/// too: an app relates a score only to a workout it may see, and finds a workout's scores only as it may see both; and states
/// of mind, found by label and by valence only as the app may read them; and vision prescriptions, read object by object:
/// apps save them and ask with `requestPerObjectReadAuthorization` (the person lets two apps read what is listed and the
/// third read none of it, its own included, and turns single ones off now and then), and each app's prescriptions — by
/// sample query, by source, and when it tries to delete another's — are exactly those allowed (by default, its own); and
/// medications: the person tracks them and logs doses, apps ask for them object by object (the same refused app), the
/// person turns single ones off or stops tracking one, and each app's medications and dose events are exactly those of
/// the medications shared with it; a dose an app tries to save is refused. The suite runs a seeded slice;
/// `OPENHEALTHKIT_PRIVACY_CASES=10000` runs the long one (see FUZZING.md).
@Suite("Privacy (randomized property)")
struct PrivacyPropertyTests {
    static let apps = ["com.example.a", "com.example.b", "com.example.c"]
    static let kinds: [HKQuantityType] = [HKQuantityType(.stepCount), HKQuantityType(.heartRate)]
    static let energy = HKQuantityType(.dietaryEnergyConsumed)
    static let food = HKCorrelationType(.food)
    static let workout = HKObjectType.workoutType()
    static let effort = HKQuantityType(.workoutEffortScore)
    static let mood = HKObjectType.stateOfMindType()
    static let moodLabels: [HKStateOfMind.Label] = [.happy, .sad, .calm]
    static let prescription = HKObjectType.visionPrescriptionType()
    static let medication = HKObjectType.userAnnotatedMedicationType()
    static let dose = HKObjectType.medicationDoseEventType()
    /// The app whose person lets it read none of the prescriptions on its sheets (the others are let read all listed).
    static let refusedObjects = "com.example.c"
    static let slots = 40
    static let slotLength: TimeInterval = 1800

    /// How many random cases to run: a seeded slice in `swift test` (fewer through the daemon, where each case starts
    /// one), more when asked.
    static func caseCount(_ backend: Backend) -> Int {
        ProcessInfo.processInfo.environment["OPENHEALTHKIT_PRIVACY_CASES"].flatMap(Int.init) ?? (backend.isEmbedded ? 10 : 4)
    }
    /// Random steps per case, each followed by one app's queries.
    static var stepCount: Int { ProcessInfo.processInfo.environment["OPENHEALTHKIT_PRIVACY_STEPS"].flatMap(Int.init) ?? 30 }

    @Test(.timeLimit(.minutes(5)), arguments: Backend.allCases)
    func everyAnswerIsWhatTheModelSaysTheAppMayKnow(_ backend: Backend) async throws {
        let first = ProcessInfo.processInfo.environment["OPENHEALTHKIT_PRIVACY_SEED"].flatMap(UInt64.init) ?? 1
        let cases = Self.caseCount(backend)
        var findings: [String] = []
        var checks = 0
        for seed in first..<(first + UInt64(cases)) {
            let (caseChecks, caseFindings) = try await AppSession.with(backend) { session in
                var world = try await World(seed: seed, session: session)
                do {
                    try await world.run(steps: Self.stepCount)
                } catch {
                    world.findings.append("seed \(seed): unexpected \(error)")
                }
                return (world.checks, world.findings)
            }
            checks += caseChecks
            findings += caseFindings.prefix(3)
            if findings.count >= 10 { break }
        }
        print("privacy property (\(backend)): \(cases) cases of \(Self.stepCount) steps from seed \(first), \(checks) checks, "
              + "\(findings.count) findings")
        #expect(findings.isEmpty, "\(findings.joined(separator: "\n"))")
        #expect(checks > cases * Self.stepCount * 10, "the cases checked something")
    }
}

/// The model: what was saved and deleted, by whom, and what the person allowed.
private struct Model {
    struct Sample {
        let uuid: UUID
        let app: String
        let type: String
        let value: Double
        let slot: Int
        let seq: Int
        var correlation: UUID?
    }
    struct Tombstone {
        let uuid: UUID
        let app: String
        let type: String
        let seq: Int
    }

    var samples: [UUID: Sample] = [:]
    /// Food correlations: their UUID, owner and member.
    var correlations: [UUID: (app: String, member: UUID?)] = [:]
    var tombstones: [Tombstone] = []
    /// Workouts, with their owner; effort scores, with their owner, workout and value.
    var workouts: [UUID: (app: String, object: HKWorkout)] = [:]
    var efforts: [UUID: (app: String, workout: UUID, value: Double)] = [:]
    /// States of mind, with their owner, label and valence.
    var moods: [UUID: (app: String, label: HKStateOfMind.Label, valence: Double)] = [:]
    /// Vision prescriptions, with their owner; the person's choices of what each app may read (by UUID, deleted ones
    /// included): without one, an app reads what it saved.
    var prescriptions: [UUID: (app: String, object: HKVisionPrescription)] = [:]
    var objectChoices: [String: [UUID: Bool]] = [:]

    func mayReadPrescription(_ app: String, _ uuid: UUID) -> Bool {
        objectChoices[app]?[uuid] ?? (prescriptions[uuid]?.app == app)
    }
    /// The medications the person tracks (by concept identifier, each used once), whether each has a schedule; the
    /// doses logged, by UUID, with their medication; each app's choices by medication (none: it may not read it).
    var medications: [String: Bool] = [:]
    var doses: [UUID: String] = [:]
    var medicationChoices: [String: [String: Bool]] = [:]
    var medicationSeq = 0

    func mayReadMedication(_ app: String, _ concept: String) -> Bool {
        medications[concept] != nil && medicationChoices[app]?[concept] == true
    }
    var share: [String: Set<String>] = [:]
    var read: [String: Set<String>] = [:]
    var guest = false
    var sampleSeq = 0
    var tombstoneSeq = 0

    func mayRead(_ app: String, _ type: String) -> Bool { read[app, default: []].contains(type) }
    func mayShare(_ app: String, _ type: String) -> Bool { share[app, default: []].contains(type) }

    /// The live samples of `type` that `app` may see, in the slots `[from, to)`.
    func visible(_ app: String, _ type: String, from: Int = 0, to: Int = PrivacyPropertyTests.slots) -> [Sample] {
        samples.values.filter { $0.type == type && ($0.app == app || mayRead(app, type)) && (from..<to).contains($0.slot) }
    }
}

/// One random case: a store, three apps and the model, stepped together.
private struct World {
    var random: PredicateRandom
    let seed: UInt64
    let session: AppSession
    let person: HealthPerson
    var stores: [String: HKHealthStore] = [:]
    var model = Model()
    /// Each app's anchor per type, with the model's position for it.
    var anchors: [String: (anchor: HKQueryAnchor?, sample: Int, deleted: Int)] = [:]
    var findings: [String] = []
    var checks = 0
    var nextSlot = 0

    init(seed: UInt64, session: AppSession) async throws {
        self.seed = seed
        self.session = session
        random = PredicateRandom(state: seed &* 0x9E37_79B9)
        person = try session.person()
        let all: Set<HKSampleType> = Set(PrivacyPropertyTests.kinds + [PrivacyPropertyTests.energy, PrivacyPropertyTests.effort])
            .union([PrivacyPropertyTests.workout, PrivacyPropertyTests.mood])
        let types = Set(all.map(\.identifier))
        for app in PrivacyPropertyTests.apps {
            let manifest = AppManifest(bundleIdentifier: app, name: app, shareUsageDescription: "Reads.", updateUsageDescription: "Writes.")
            let store = try await session.app(manifest, answering: app == PrivacyPropertyTests.refusedObjects
                                              ? .init(default: .allow, readObjects: .deny) : .allowAll)
            try await store.requestAuthorization(toShare: all.union([PrivacyPropertyTests.prescription]), read: all)
            stores[app] = store
            model.share[app] = types.union([PrivacyPropertyTests.prescription.identifier])
            model.read[app] = types
        }
    }

    mutating func pick<T>(_ items: [T]) -> T { items[Int.random(in: 0..<items.count, using: &random)] }
    mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &random) < p }

    mutating func finding(_ text: String) { findings.append("seed \(seed): \(text)") }

    mutating func check(_ ok: Bool, _ text: String) {
        checks += 1
        if !ok { finding(text) }
    }

    func date(_ slot: Int) -> Date { day0.addingTimeInterval(Double(slot) * PrivacyPropertyTests.slotLength) }

    func unit(_ type: String) -> HKUnit {
        switch type {
        case HKQuantityTypeIdentifier.heartRate.rawValue: HKUnit(from: "count/min")
        case HKQuantityTypeIdentifier.dietaryEnergyConsumed.rawValue: .kilocalorie()
        default: .count()
        }
    }

    mutating func newSample(_ type: HKQuantityType) -> HKQuantitySample? {
        guard nextSlot < PrivacyPropertyTests.slots else { return nil }
        defer { nextSlot += 1 }
        let value = Double(Int.random(in: 40...180, using: &random))
        return HKQuantitySample(type: type, quantity: HKQuantity(unit: unit(type.identifier), doubleValue: value),
                                start: date(nextSlot), end: date(nextSlot).addingTimeInterval(600))
    }

    /// The code and message of what `body` threw (UUIDs masked), nil when it did not.
    func outcome(_ body: () async throws -> Void) async -> String? {
        do {
            try await body()
            return nil
        } catch let error as HKError {
            return "\(error.code.rawValue) " + error.message.replacingOccurrences(of: "[0-9A-F-]{36}", with: "<uuid>", options: .regularExpression)
        } catch {
            return "other \(error)"
        }
    }

    func code(_ outcome: String?) -> Int? { outcome.flatMap { Int($0.prefix { $0 != " " }) } }

    // MARK: Steps

    mutating func run(steps: Int) async throws {
        for _ in 0..<steps {
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<22: try await save()
            case 22..<30: try await saveMeal()
            case 30..<40: try await deleteByUUID()
            case 40..<45: try await deleteByPredicate()
            case 45..<62: try setPermission()
            case 62..<65: try toggleGuest()
            case 65..<68: try await impersonate()
            case 68..<76: try await rateWorkout()
            case 76..<82: try await logMood()
            case 82..<86: try await prescribe()
            case 86..<91: try await askForPrescriptions()
            case 91..<93: try withdrawPrescription()
            case 93..<95: try trackMedication()
            case 95..<97: try await askForMedications()
            case 97: try changeMedications()
            case 98: try await forgeDose()
            default: break
            }
            try await queryEverything(by: pick(PrivacyPropertyTests.apps))
        }
        for app in PrivacyPropertyTests.apps { try await queryEverything(by: app) }
    }

    mutating func save() async throws {
        let app = pick(PrivacyPropertyTests.apps), type = pick(PrivacyPropertyTests.kinds)
        let count = Int.random(in: 1...3, using: &random)
        let samples = (0..<count).compactMap { _ in newSample(type) }
        guard !samples.isEmpty else { return }
        let result = await outcome { try await stores[app]!.save(samples) }
        if model.guest {
            check(code(result) == HKError.Code.errorNotPermissibleForGuestUserMode.rawValue, "save in guest mode: \(result ?? "saved")")
        } else if !model.mayShare(app, type.identifier) {
            check(code(result) == HKError.Code.errorAuthorizationDenied.rawValue, "save without share: \(result ?? "saved")")
        } else {
            check(result == nil, "\(app) save of \(type.identifier): \(result ?? "")")
        }
        guard result == nil else { return }
        for sample in samples {
            model.sampleSeq += 1
            model.samples[sample.uuid] = .init(uuid: sample.uuid, app: app, type: type.identifier,
                                               value: sample.quantity.doubleValue(for: unit(type.identifier)),
                                               slot: Int(sample.startDate.timeIntervalSince(day0) / PrivacyPropertyTests.slotLength),
                                               seq: model.sampleSeq)
        }
    }

    mutating func saveMeal() async throws {
        let app = pick(PrivacyPropertyTests.apps)
        guard let calories = newSample(PrivacyPropertyTests.energy) else { return }
        let meal = HKCorrelation(type: PrivacyPropertyTests.food, start: calories.startDate, end: calories.endDate, objects: [calories],
                                 metadata: [HKMetadataKeyFoodType: "Banana"])
        let result = await outcome { try await stores[app]!.save(meal) }
        let allowed = !model.guest && model.mayShare(app, PrivacyPropertyTests.energy.identifier)
        check((result == nil) == allowed, "\(app) meal (guest \(model.guest), share energy \(model.mayShare(app, PrivacyPropertyTests.energy.identifier))): \(result ?? "saved")")
        guard result == nil else { return }
        model.sampleSeq += 2
        model.samples[calories.uuid] = .init(uuid: calories.uuid, app: app, type: PrivacyPropertyTests.energy.identifier,
                                             value: calories.quantity.doubleValue(for: .kilocalorie()),
                                             slot: Int(calories.startDate.timeIntervalSince(day0) / PrivacyPropertyTests.slotLength),
                                             seq: model.sampleSeq, correlation: meal.uuid)
        model.correlations[meal.uuid] = (app, calories.uuid)
    }

    /// Deletes an object by UUID — its own, another app's, one already deleted, or one never saved — and checks the
    /// answer: another app's object of a type the deleter may not read answers exactly as an absent one.
    mutating func deleteByUUID() async throws {
        let app = pick(PrivacyPropertyTests.apps)
        let candidates = Array(model.samples.values).sorted { $0.seq < $1.seq }
        let fresh = randomUUID()
        guard let target = candidates.isEmpty ? nil : pick(candidates) else { return }
        let object = HKQuantitySample(type: HKQuantityType(HKQuantityTypeIdentifier(rawValue: target.type)),
                                      quantity: HKQuantity(unit: unit(target.type), doubleValue: target.value),
                                      start: date(target.slot), end: date(target.slot).addingTimeInterval(600))
        // The object as the app would hold it: same UUID (HKObject's UUID is what delete uses).
        let held = try copy(object, uuid: target.uuid)
        let absent = try copy(HKQuantitySample(type: HKQuantityType(HKQuantityTypeIdentifier(rawValue: target.type)),
                                               quantity: HKQuantity(unit: unit(target.type), doubleValue: target.value),
                                               start: date(target.slot), end: date(target.slot).addingTimeInterval(600)), uuid: fresh)
        let store = stores[app]!
        let answer = await outcome { try await store.delete(held) }
        let absentAnswer = await outcome { try await store.delete(absent) }
        if target.app == app {
            let allowed = !model.guest && model.mayShare(app, target.type)
            check((answer == nil) == allowed, "\(app) deleting its own \(target.type): \(answer ?? "deleted")")
            if answer == nil { removeFromModel(target) }
        } else if model.mayRead(app, target.type) {
            check(answer != nil, "\(app) deleted another app's \(target.type)")
        } else {
            check(answer == absentAnswer, "\(app) deleting another app's hidden \(target.type): \(answer ?? "deleted") vs absent: \(absentAnswer ?? "deleted")")
        }
    }

    mutating func removeFromModel(_ target: Model.Sample) {
        model.samples[target.uuid] = nil
        model.tombstoneSeq += 1
        model.tombstones.append(.init(uuid: target.uuid, app: target.app, type: target.type, seq: model.tombstoneSeq))
        if let meal = target.correlation { model.correlations[meal]?.member = nil }
    }

    /// A UUID from the case's random numbers (never saved: saves use fresh system UUIDs).
    mutating func randomUUID() -> UUID {
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in bytes.indices { bytes[index] = UInt8.random(in: 0...255, using: &random) }
        return NSUUID(uuidBytes: bytes) as UUID
    }

    /// `sample` as an object with the UUID `uuid`: what an app holding that UUID passes to `delete`.
    func copy(_ sample: HKQuantitySample, uuid: UUID) throws -> HKQuantitySample {
        HKQuantitySample(type: sample.quantityType, quantity: sample.quantity, start: sample.startDate, end: sample.endDate, uuid: uuid,
                         metadata: nil, device: nil)
    }

    mutating func deleteByPredicate() async throws {
        let app = pick(PrivacyPropertyTests.apps), type = pick(PrivacyPropertyTests.kinds)
        let from = Int.random(in: 0..<PrivacyPropertyTests.slots, using: &random)
        let to = Int.random(in: (from + 1)...PrivacyPropertyTests.slots, using: &random)
        var deleted = 0
        let answer = await outcome {
            deleted = try await stores[app]!.deleteObjects(of: type, predicate: HKQuery.predicateForSamples(withStart: date(from), end: date(to)))
        }
        let own = model.samples.values.filter { $0.app == app && $0.type == type.identifier && (from..<to).contains($0.slot) }
        if model.guest || !model.mayShare(app, type.identifier) {
            check(answer != nil, "\(app) deleted by predicate without the right to")
        } else {
            check(answer == nil && deleted == own.count, "\(app) deleted \(deleted) of its \(own.count) \(type.identifier) (\(answer ?? ""))")
            if answer == nil { for sample in own.sorted(by: { $0.seq < $1.seq }) { removeFromModel(sample) } }
        }
    }

    mutating func setPermission() throws {
        let app = pick(PrivacyPropertyTests.apps)
        let type: HKObjectType = pick(PrivacyPropertyTests.kinds + [PrivacyPropertyTests.energy, PrivacyPropertyTests.effort] as [HKObjectType]
                                      + [PrivacyPropertyTests.workout, PrivacyPropertyTests.mood])
        let share = chance(0.6), read = chance(0.5)
        try person.setPermission(app: app, type: type, share: share, read: read)
        if share { model.share[app, default: []].insert(type.identifier) } else { model.share[app, default: []].remove(type.identifier) }
        if read { model.read[app, default: []].insert(type.identifier) } else { model.read[app, default: []].remove(type.identifier) }
    }

    /// An app saves a workout now and then, and relates an effort score to a workout: its own, another app's, or one
    /// never saved. Another app's workout it may not read is answered exactly as one never saved.
    mutating func rateWorkout() async throws {
        let app = pick(PrivacyPropertyTests.apps), store = stores[app]!
        let workoutID = PrivacyPropertyTests.workout.identifier, effortID = PrivacyPropertyTests.effort.identifier
        if model.workouts.isEmpty || chance(0.3) {
            let start = day0.addingTimeInterval(Double(model.workouts.count) * 3600)
            let workout = HKWorkout(activityType: .running, start: start, end: start.addingTimeInterval(1800))
            let result = await outcome { try await store.save(workout) }
            let allowed = !model.guest && model.mayShare(app, workoutID)
            check((result == nil) == allowed, "\(app) saving a workout (guest \(model.guest), share \(model.mayShare(app, workoutID))): \(result ?? "saved")")
            if result == nil { model.workouts[workout.uuid] = (app, workout) }
        }
        let known = model.workouts.values.sorted { $0.object.startDate < $1.object.startDate }
        let never = HKWorkout(activityType: .running, start: day0, end: day0.addingTimeInterval(60))
        let target = known.isEmpty || chance(0.2) ? (app: app, object: never) : pick(known)
        func score() -> HKQuantitySample {
            HKQuantitySample(type: PrivacyPropertyTests.effort, quantity: HKQuantity(unit: .appleEffortScore(), doubleValue: Double(Int.random(in: 1...10, using: &random))),
                             start: target.object.startDate, end: target.object.endDate)
        }
        let rating = score()
        let result = await outcome { _ = try await store.relateWorkoutEffortSample(rating, with: target.object, activity: nil) }
        let absent = await outcome { _ = try await store.relateWorkoutEffortSample(score(), with: never, activity: nil) }
        let saved = model.workouts[target.object.uuid] != nil
        let visible = saved && (target.app == app || model.mayRead(app, workoutID))
        let context = "\(app) rating \(target.app)'s \(saved ? "" : "unsaved ")workout (guest \(model.guest), share effort \(model.mayShare(app, effortID)), read workouts \(model.mayRead(app, workoutID)))"
        if model.guest {
            check(code(result) == HKError.Code.errorNotPermissibleForGuestUserMode.rawValue, "\(context): \(result ?? "related")")
        } else if !model.mayShare(app, effortID) {
            check(code(result) == HKError.Code.errorAuthorizationDenied.rawValue, "\(context): \(result ?? "related")")
        } else if !visible {
            check(result != nil && result == absent, "\(context): \(result ?? "related") vs never saved: \(absent ?? "related")")
        } else {
            check(result == nil, "\(context): \(result ?? "")")
        }
        if result == nil { model.efforts[rating.uuid] = (app, target.object.uuid, rating.quantity.doubleValue(for: .appleEffortScore())) }
    }

    mutating func toggleGuest() throws {
        model.guest.toggle()
        try person.setGuestMode(model.guest)
    }

    mutating func impersonate() async throws {
        let identity = pick(["com.apple.Health", "com.apple.health.ABCDEF", "export.Withings", "healthrecords.city-hospital"]
                            + PrivacyPropertyTests.apps)
        let manifest = AppManifest(bundleIdentifier: identity, name: "Impostor", shareUsageDescription: "Reads.", updateUsageDescription: "Writes.")
        guard session.backend.isEmbedded else {
            // Through the daemon an impostor cannot even register: no token, nothing to call with, in guest mode too.
            let answer = await outcome { _ = try await session.token(for: manifest) }
            check(answer != nil, "impostor as \(identity) registered with the daemon")
            return
        }
        let impostor = HKHealthStore(configuration: .init(storeDirectory: session.folder, app: manifest, presenter: ScriptedPresenter(.allowAll)))
        let answer = await outcome { try await impostor.requestAuthorization(toShare: [PrivacyPropertyTests.kinds[0]], read: [PrivacyPropertyTests.kinds[0]]) }
        if model.guest {
            // Guest mode asks nothing and grants nothing; the impostor still reads nothing as its own.
        } else {
            check(code(answer) == HKError.Code.errorAuthorizationDenied.rawValue, "impostor as \(identity): \(answer ?? "registered")")
        }
        let seen = try? await HKSampleQueryDescriptor(predicates: [.quantitySample(type: PrivacyPropertyTests.kinds[0])], sortDescriptors: [])
            .result(for: impostor)
        check((seen ?? []).isEmpty, "impostor as \(identity) read \(seen?.count ?? 0) samples")
    }

    // MARK: Queries

    /// An app logs a state of mind: saved only with share permission and outside guest mode.
    mutating func logMood() async throws {
        let app = pick(PrivacyPropertyTests.apps), label = pick(PrivacyPropertyTests.moodLabels)
        let valence = Double(Int.random(in: -4...4, using: &random)) / 4
        let state = HKStateOfMind(date: date(Int.random(in: 0..<PrivacyPropertyTests.slots, using: &random)), kind: chance(0.5) ? .dailyMood : .momentaryEmotion,
                                  valence: valence, labels: [label], associations: [.health])
        let result = await outcome { try await stores[app]!.save(state) }
        let allowed = !model.guest && model.mayShare(app, PrivacyPropertyTests.mood.identifier)
        check((result == nil) == allowed, "\(app) logs a mood (guest \(model.guest), share \(model.mayShare(app, PrivacyPropertyTests.mood.identifier))): \(result ?? "saved")")
        if result == nil { model.moods[state.uuid] = (app, label, valence) }
    }

    /// An app saves a glasses prescription (with share permission, outside guest mode), or deletes one: its own, or
    /// another app's — which answers as absent when the app may not read it, and is refused when it may.
    mutating func prescribe() async throws {
        let app = pick(PrivacyPropertyTests.apps), store = stores[app]!
        let id = PrivacyPropertyTests.prescription.identifier
        if !model.prescriptions.isEmpty, chance(0.35) {
            let (uuid, target) = pick(model.prescriptions.sorted { $0.key.uuidString < $1.key.uuidString })
            let answer = await outcome { try await store.delete(target.object) }
            let never = HKGlassesPrescription(rightEyeSpecification: lens(), leftEyeSpecification: nil, dateIssued: day0, expirationDate: nil,
                                              device: nil, metadata: nil)
            let absent = await outcome { try await store.delete(never) }
            if target.app == app {
                let allowed = !model.guest && model.mayShare(app, id)
                check((answer == nil) == allowed, "\(app) deleting its own prescription: \(answer ?? "deleted")")
                if answer == nil { model.prescriptions[uuid] = nil }
            } else if model.mayReadPrescription(app, uuid) {
                check(answer != nil && answer != absent, "\(app) deleting a prescription it may read: \(answer ?? "deleted") vs absent \(absent ?? "")")
            } else {
                check(answer == absent, "\(app) deleting a hidden prescription: \(answer ?? "deleted") vs absent: \(absent ?? "deleted")")
            }
            return
        }
        let issued = date(Int.random(in: 0..<PrivacyPropertyTests.slots, using: &random))
        let glasses = HKGlassesPrescription(rightEyeSpecification: lens(), leftEyeSpecification: chance(0.5) ? lens() : nil, dateIssued: issued,
                                            expirationDate: chance(0.5) ? issued.addingTimeInterval(86_400 * 365) : nil, device: nil, metadata: nil)
        let result = await outcome { try await store.save(glasses) }
        let allowed = !model.guest && model.mayShare(app, id)
        check((result == nil) == allowed, "\(app) saves a prescription (guest \(model.guest), share \(model.mayShare(app, id))): \(result ?? "saved")")
        if result == nil { model.prescriptions[glasses.uuid] = (app, glasses) }
    }

    mutating func lens() -> HKGlassesLensSpecification {
        HKGlassesLensSpecification(sphere: HKQuantity(unit: .diopter(), doubleValue: Double(Int.random(in: -24...8, using: &random)) / 4),
                                   cylinder: nil, axis: nil, addPower: nil, vertexDistance: nil, prism: nil, farPupillaryDistance: nil,
                                   nearPupillaryDistance: nil)
    }

    /// An app asks to read prescriptions — all, or some by UUID (known, deleted or never saved) — and the person answers
    /// its sheet: the objects listed (others' matching ones) become readable, or, for the refused app, unreadable.
    mutating func askForPrescriptions() async throws {
        let app = pick(PrivacyPropertyTests.apps)
        var asked: Set<UUID>?
        if chance(0.6) {
            let known = model.prescriptions.keys.sorted { $0.uuidString < $1.uuidString }
            asked = Set(known.filter { _ in chance(0.5) } + (chance(0.3) ? [randomUUID()] : []))
        }
        let result = await outcome {
            try await stores[app]!.requestPerObjectReadAuthorization(for: PrivacyPropertyTests.prescription,
                                                                     predicate: asked.map { HKQuery.predicateForObjects(with: $0) })
        }
        check(result == nil, "\(app) asking for prescriptions: \(result ?? "")")
        guard result == nil, !model.guest else { return }
        // Every matching prescription is listed, the app's own too.
        for uuid in model.prescriptions.keys where asked?.contains(uuid) ?? true {
            model.objectChoices[app, default: [:]][uuid] = app != PrivacyPropertyTests.refusedObjects
        }
    }

    /// The person stops letting an app read one prescription it may read (given to it, or its own).
    mutating func withdrawPrescription() throws {
        let app = pick(PrivacyPropertyTests.apps)
        let readable = model.prescriptions.keys.filter { model.mayReadPrescription(app, $0) }.sorted { $0.uuidString < $1.uuidString }
        guard !readable.isEmpty else { return }
        let uuid = pick(readable)
        let withdrawn = try person.withdrawObjectReadGrant(app: app, uuid: uuid)
        check(withdrawn, "the person could not turn off \(app)'s reading of a prescription it may read")
        model.objectChoices[app, default: [:]][uuid] = false
    }

    /// The person starts tracking a medication (a new one, scheduled or not) or logs a dose of one tracked. Not in guest
    /// mode (the guest cannot change the person's medications).
    mutating func trackMedication() throws {
        guard !model.guest else { return }
        if model.medications.isEmpty || chance(0.4) {
            model.medicationSeq += 1
            let concept = "rx\(model.medicationSeq)", scheduled = chance(0.5)
            try person.addMedication(named: "Medication \(model.medicationSeq)", form: .tablet,
                                     codings: [HKClinicalCoding(system: HKClinicalCoding.rxNormSystem, version: nil, code: concept)],
                                     hasSchedule: scheduled)
            model.medications[concept] = scheduled
        }
        let concept = pick(model.medications.keys.sorted())
        let at = date(Int.random(in: 0..<PrivacyPropertyTests.slots, using: &random))
        let dose = try person.logDose(of: .medication(concept), status: pick([.taken, .skipped, .snoozed]), at: at, dose: 1, unit: .count())
        model.doses[dose.uuid] = concept
    }

    /// An app asks to read medications — all, or the scheduled or unscheduled ones — and the person answers its sheet: the
    /// listed ones become readable, or, for the refused app, unreadable.
    mutating func askForMedications() async throws {
        let app = pick(PrivacyPropertyTests.apps)
        let scheduled: Bool? = chance(0.5) ? chance(0.5) : nil
        let result = await outcome {
            try await stores[app]!.requestPerObjectReadAuthorization(
                for: PrivacyPropertyTests.medication, predicate: scheduled.map { HKQuery.predicateForUserAnnotatedMedications(hasSchedule: $0) })
        }
        check(result == nil, "\(app) asking for medications: \(result ?? "")")
        guard result == nil, !model.guest else { return }
        for (concept, hasSchedule) in model.medications where scheduled.map({ $0 == hasSchedule }) ?? true {
            model.medicationChoices[app, default: [:]][concept] = app != PrivacyPropertyTests.refusedObjects
        }
    }

    /// The person turns one app's reading of a medication off, or stops tracking a medication (its doses go with it).
    mutating func changeMedications() throws {
        guard !model.guest, !model.medications.isEmpty else { return }
        let concept = pick(model.medications.keys.sorted())
        if chance(0.5) {
            let app = pick(PrivacyPropertyTests.apps)
            guard model.mayReadMedication(app, concept),
                  let tracked = try person.sharedMedications(app: app).first(where: { $0.medication.medication.identifier.underlyingIdentifier == concept })
            else { return }
            check(try person.withdrawObjectReadGrant(app: app, uuid: tracked.uuid), "the person could not turn off \(app)'s reading of \(concept)")
            model.medicationChoices[app, default: [:]][concept] = false
        } else {
            let removed = try person.removeMedication(.medication(concept))
            check(removed == model.doses.values.filter { $0 == concept }.count, "removing \(concept) deleted \(removed) doses")
            model.medications[concept] = nil
            model.doses = model.doses.filter { $0.value != concept }
        }
    }

    /// An app tries to save a dose event (decoded from an archive, since none can make one): refused, whatever it may do.
    mutating func forgeDose() async throws {
        guard let concept = model.medications.keys.sorted().first else { return }
        let app = pick(PrivacyPropertyTests.apps)
        let forged = try HKMedicationDoseEvent.validated(scheduleType: .asNeeded, medication: .medication(concept), scheduledDate: nil,
                                                         scheduledDoseQuantity: nil, doseQuantity: 1, logStatus: .taken, unit: .count(),
                                                         start: date(0), end: date(0))
        let result = await outcome { try await stores[app]!.save(forged) }
        check([HKError.Code.errorAuthorizationDenied.rawValue, HKError.Code.errorNotPermissibleForGuestUserMode.rawValue].contains(code(result) ?? -1),
              "\(app) saving a dose event: \(result ?? "saved")")
    }

    mutating func queryEverything(by app: String) async throws {
        let store = stores[app]!
        let from = Int.random(in: 0..<PrivacyPropertyTests.slots, using: &random)
        let to = Int.random(in: (from + 1)...PrivacyPropertyTests.slots, using: &random)
        let window = HKQuery.predicateForSamples(withStart: date(from), end: date(to))
        for type in PrivacyPropertyTests.kinds {
            let id = type.identifier
            let expected = model.visible(app, id, from: from, to: to)
            let context = "\(app) reads \(id) in [\(from), \(to)) (read \(model.mayRead(app, id)))"

            // Samples.
            let samples = try await HKSampleQueryDescriptor(predicates: [.quantitySample(type: type, predicate: window)], sortDescriptors: [])
                .result(for: store)
            check(Set(samples.map(\.uuid)) == Set(expected.map(\.uuid)), "\(context): \(samples.count) samples, model \(expected.count)")

            // Statistics.
            let cumulative = type.aggregationStyle == .cumulative
            let statistics = try? await HKStatisticsQueryDescriptor(predicate: .quantitySample(type: type, predicate: window),
                                                                    options: cumulative ? .cumulativeSum : [.discreteAverage, .discreteMax])
                .result(for: store)
            let u = unit(id)
            if expected.isEmpty {
                check(statistics == nil || (statistics?.sumQuantity() == nil && statistics?.averageQuantity() == nil),
                      "\(context): statistics over nothing visible")
            } else if cumulative {
                let sum = statistics?.sumQuantity()?.doubleValue(for: u)
                check(sum.map { abs($0 - expected.map(\.value).reduce(0, +)) < 1e-6 } ?? false, "\(context): sum \(sum ?? -1)")
            } else {
                let max = statistics?.maximumQuantity()?.doubleValue(for: u)
                let average = statistics?.averageQuantity()?.doubleValue(for: u)
                let mean = expected.map(\.value).reduce(0, +) / Double(expected.count)
                let top = expected.map(\.value).max()!
                check(max.map { abs($0 - top) < 1e-9 } == true && average.map { abs($0 - mean) < 1e-9 } == true,
                      "\(context): max \(max ?? -1) average \(average ?? -1), model \(expected.map(\.value))")
            }

            // A statistics collection by hour, separate by source: its per-source sums are the model's.
            if cumulative {
                let collection = try await HKStatisticsCollectionQueryDescriptor(
                    predicate: .quantitySample(type: type, predicate: window), options: [.cumulativeSum, .separateBySource],
                    anchorDate: day0, intervalComponents: DateComponents(hour: 1)).result(for: store)
                var bySource: [String: Double] = [:]
                collection.enumerateStatistics(from: date(from), to: date(to)) { statistics, _ in
                    for source in statistics.sources ?? [] {
                        bySource[source.bundleIdentifier, default: 0] += statistics.sumQuantity(for: source)?.doubleValue(for: u) ?? 0
                    }
                }
                let modelBySource = Dictionary(grouping: expected, by: \.app).mapValues { $0.map(\.value).reduce(0, +) }
                check(bySource == modelBySource, "\(context): collection by source \(bySource), model \(modelBySource)")
            }

            // Sources.
            let sources = try await HKSourceQueryDescriptor(predicate: .quantitySample(type: type, predicate: window)).result(for: store)
            check(Set(sources.map(\.bundleIdentifier)) == Set(expected.map(\.app)), "\(context): sources \(sources.map(\.bundleIdentifier))")

            // Authorization status tells sharing only, never reading.
            let status = store.authorizationStatus(for: type)
            check(status == (model.mayShare(app, id) ? .sharingAuthorized : .sharingDenied), "\(context): status \(status.rawValue)")

            try await anchored(app, type)
        }

        // Meals and their calories.
        let meals = try await HKSampleQueryDescriptor(predicates: [.correlation(type: PrivacyPropertyTests.food)], sortDescriptors: [])
            .result(for: store)
        let energy = PrivacyPropertyTests.energy.identifier
        let expectedMeals = model.correlations.filter { $0.value.app == app || model.mayRead(app, energy) }.keys
        check(Set(meals.map(\.uuid)) == Set(expectedMeals), "\(app) sees \(meals.count) meals, model \(expectedMeals.count) (read energy \(model.mayRead(app, energy)))")
        let calories = try await HKSampleQueryDescriptor(predicates: [.quantitySample(type: PrivacyPropertyTests.energy)], sortDescriptors: [])
            .result(for: store)
        check(Set(calories.map(\.uuid)) == Set(model.visible(app, energy).map(\.uuid)), "\(app) sees \(calories.count) calorie samples")

        // States of mind by one label, and the unpleasant ones by valence: only those the app may see.
        let moodID = PrivacyPropertyTests.mood.identifier
        let label = pick(PrivacyPropertyTests.moodLabels)
        let visibleMoods = model.moods.filter { $0.value.app == app || model.mayRead(app, moodID) }
        let labelled = try await HKSampleQueryDescriptor(predicates: [.stateOfMind(HKQuery.predicateForStatesOfMind(with: label))], sortDescriptors: [])
            .result(for: store)
        check(Set(labelled.map(\.uuid)) == Set(visibleMoods.filter { $0.value.label == label }.keys),
              "\(app) sees \(labelled.count) \(label) moods, model \(visibleMoods.filter { $0.value.label == label }.count) (read \(model.mayRead(app, moodID)))")
        let unpleasant = try await HKSampleQueryDescriptor(
            predicates: [.stateOfMind(HKQuery.predicateForStatesOfMind(withValence: 0, operatorType: .lessThan))], sortDescriptors: []).result(for: store)
        check(Set(unpleasant.map(\.uuid)) == Set(visibleMoods.filter { $0.value.valence < 0 }.keys),
              "\(app) sees \(unpleasant.count) unpleasant moods, model \(visibleMoods.filter { $0.value.valence < 0 }.count)")

        // Vision prescriptions: its own and exactly those granted, from sample and source queries.
        let expectedPrescriptions = model.prescriptions.filter { model.mayReadPrescription(app, $0.key) }
        let prescriptions = try await HKSampleQueryDescriptor(predicates: [.visionPrescription()], sortDescriptors: []).result(for: store)
        check(Set(prescriptions.map(\.uuid)) == Set(expectedPrescriptions.keys),
              "\(app) sees \(prescriptions.count) prescriptions, model \(expectedPrescriptions.count)")
        let prescribers = try await HKSourceQueryDescriptor(predicate: .visionPrescription()).result(for: store)
        check(Set(prescribers.map(\.bundleIdentifier)) == Set(expectedPrescriptions.values.map(\.app)),
              "\(app) sees prescriptions from \(prescribers.map(\.bundleIdentifier))")

        // Medications: exactly those shared and not turned off since; their doses, and no other.
        let medications = try await HKUserAnnotatedMedicationQueryDescriptor().result(for: store)
        let expectedMedications = model.medications.keys.filter { model.mayReadMedication(app, $0) }
        check(Set(medications.map(\.medication.identifier.underlyingIdentifier)) == Set(expectedMedications),
              "\(app) sees medications \(medications.map(\.medication.identifier.underlyingIdentifier).sorted()), model \(expectedMedications.sorted())")
        let doses = try await HKSampleQueryDescriptor(predicates: [.sample(type: PrivacyPropertyTests.dose)], sortDescriptors: []).result(for: store)
        let expectedDoses = model.doses.filter { model.mayReadMedication(app, $0.value) }
        check(Set(doses.map(\.uuid)) == Set(expectedDoses.keys), "\(app) sees \(doses.count) doses, model \(expectedDoses.count)")

        // Each workout's effort scores: only when the app may see the workout, and of those only the ones it may see.
        let workoutID = PrivacyPropertyTests.workout.identifier, effortID = PrivacyPropertyTests.effort.identifier
        for (uuid, workout) in model.workouts.sorted(by: { $0.value.object.startDate < $1.value.object.startDate }) {
            let related = try await HKSampleQueryDescriptor(
                predicates: [.quantitySample(type: PrivacyPropertyTests.effort,
                                             predicate: HKQuery.predicateForWorkoutEffortSamplesRelated(workout: workout.object, activity: nil))],
                sortDescriptors: []).result(for: store)
            let seesWorkout = workout.app == app || model.mayRead(app, workoutID)
            let expected = seesWorkout ? model.efforts.filter { $0.value.workout == uuid && ($0.value.app == app || model.mayRead(app, effortID)) } : [:]
            check(Set(related.map(\.uuid)) == Set(expected.keys),
                  "\(app) sees \(related.count) scores of \(workout.app)'s workout, model \(expected.count) (read workouts \(model.mayRead(app, workoutID)), read effort \(model.mayRead(app, effortID)))")
        }
    }

    /// The app's anchored query from its last anchor: the model's visible samples saved since, and the visible
    /// deletions since.
    mutating func anchored(_ app: String, _ type: HKQuantityType) async throws {
        let key = "\(app) \(type.identifier)"
        let last = anchors[key] ?? (nil, 0, 0)
        let result = try await HKAnchoredObjectQueryDescriptor(predicates: [.quantitySample(type: type)], anchor: last.anchor).result(for: stores[app]!)
        let added = model.visible(app, type.identifier).filter { $0.seq > last.sample }
        let deleted = model.tombstones.filter {
            $0.type == type.identifier && $0.seq > last.deleted && ($0.app == app || model.mayRead(app, type.identifier))
        }
        check(Set(result.addedSamples.map(\.uuid)) == Set(added.map(\.uuid)),
              "\(key): anchored added \(result.addedSamples.count), model \(added.count)")
        check(Set(result.deletedObjects.map(\.uuid)) == Set(deleted.map(\.uuid)),
              "\(key): anchored deleted \(result.deletedObjects.count), model \(deleted.count)")
        anchors[key] = (result.newAnchor, added.map(\.seq).max() ?? last.sample, deleted.map(\.seq).max() ?? last.deleted)
    }
}
