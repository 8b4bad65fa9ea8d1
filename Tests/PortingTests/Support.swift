import Foundation
import OpenHealthKit

/// One person's store in a fresh temporary folder: the apps that open it (each an `HKHealthStore` with its manifest and
/// a scripted answer to its authorization sheet) and the person's own side (`HealthPerson`), as the corpus's apps meet
/// them on a phone. The folder goes when the fixture does.
final class ScriptedPerson: @unchecked Sendable {
    let folder: URL

    init() {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("porting-\(UUID().uuidString)")
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    /// The person's side of the store: characteristics, activity summaries, preferred units, permissions.
    func person() throws -> HealthPerson {
        try HealthPerson(storeDirectory: folder)
    }

    /// An app's view of the store. Its name (as sources show it) is the last part of the bundle identifier, capitalized.
    func app(_ bundleIdentifier: String, _ answers: ScriptedPresenter.Script = .allowAll) -> HKHealthStore {
        let name = bundleIdentifier.split(separator: ".").last.map { $0.prefix(1).uppercased() + $0.dropFirst() } ?? bundleIdentifier
        return HKHealthStore(configuration: .init(
            storeDirectory: folder,
            app: AppManifest(bundleIdentifier: bundleIdentifier, name: name, shareUsageDescription: "Reads your data.",
                             updateUsageDescription: "Saves your data."),
            presenter: ScriptedPresenter(answers)))
    }

    /// Another app (a watch, a scale, a phone's motion coprocessor) that was allowed to write and read `types` and
    /// saves `samples` — the data the person already has when the app under test arrives.
    @discardableResult
    func otherApp(_ bundleIdentifier: String, saves samples: [HKSample]) async throws -> HKHealthStore {
        let store = app(bundleIdentifier)
        let types = Set(samples.map(\.sampleType))
        try await store.requestAuthorization(toShare: types, read: types)
        if !samples.isEmpty { try await store.save(samples) }
        return store
    }
}

/// Values handed over by callbacks on HealthKit's queues, read by the test.
final class Recorder<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Value] = []

    func append(_ value: Value) {
        lock.lock()
        values.append(value)
        lock.unlock()
    }

    var all: [Value] {
        lock.lock()
        defer { lock.unlock() }
        return values
    }

    var last: Value? { all.last }
}

/// Waits until `condition` holds, for at most `seconds`; returns whether it did. The default is long because the
/// whole test suite shares two cores: the export-import tests can hold them for half a minute.
func eventually(isolation: isolated (any Actor)? = #isolation, within seconds: Double = 60, _ condition: () async -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if await condition() { return true }
        try? await Task.sleep(nanoseconds: 20_000_000)
    }
    return await condition()
}

/// Lets long-running queries deliver anything still on its way.
func settle(isolation: isolated (any Actor)? = #isolation) async {
    try? await Task.sleep(nanoseconds: 300_000_000)
}

/// A quantity sample of `type` at `date` (lasting `minutes`), in `unit`.
func sample(_ identifier: HKQuantityTypeIdentifier, _ value: Double, _ unit: HKUnit, at date: Date, minutes: Double = 0,
            metadata: [String: Any]? = nil) -> HKQuantitySample {
    HKQuantitySample(type: HKQuantityType(identifier), quantity: HKQuantity(unit: unit, doubleValue: value), start: date,
                     end: date.addingTimeInterval(minutes * 60), metadata: metadata)
}

extension Calendar {
    /// `days` days before today, at `hour`:`minute`.
    func day(_ days: Int, hour: Int = 0, minute: Int = 0) -> Date {
        let midnight = date(byAdding: .day, value: -days, to: startOfDay(for: Date()))!
        return date(bySettingHour: hour, minute: minute, second: 0, of: midnight)!
    }
}
