import Foundation
import OpenHealthKit

/// An app written as HealthKit apps are — `HKHealthStore()`, save, query — that knows nothing of where the store is.
/// With `OPENHEALTHKIT_SERVER` and `OPENHEALTHKIT_TOKEN` set, every call goes to the daemon (`health serve`) as the
/// app the token names; the tests run two of them at once as a user who cannot open the store's files.
///
///     step-counter <samples to save> [<a file to try to open>]
///     step-counter authorize <steps>
///
/// Saves that many one-step samples, then prints how many step samples it can see; with a file, first prints whether
/// it could open it (the store's database, in the tests). With `authorize`, it first asks the person for access as an
/// app does at its first launch (to write and read steps, to read heart rate), waits for the answer, then saves one
/// sample of that many steps ending now and prints its authorization status.
@main
struct StepCounter {
    static func main() async {
        let arguments = CommandLine.arguments
        if arguments.count == 3, arguments[1] == "authorize", let steps = Double(arguments[2]) {
            return await authorizeThenSave(steps)
        }
        guard arguments.count >= 2, let count = Int(arguments[1]), count >= 0 else {
            print("usage: step-counter <samples to save> [<a file to try to open>]")
            exit(64)
        }
        if arguments.count > 2 {
            let path = arguments[2]
            let descriptor = open(path, O_RDONLY)
            if descriptor >= 0 {
                close(descriptor)
                print("\(path): opened")
            } else {
                print("\(path): cannot open (\(String(cString: strerror(errno))))")
            }
        }
        let store = HKHealthStore()
        let steps = HKQuantityType(.stepCount)
        do {
            for index in 0..<count {
                let start = Date(timeIntervalSinceReferenceDate: 800_000_000 + Double(index) * 60)
                try await store.save(HKQuantitySample(type: steps, quantity: HKQuantity(unit: .count(), doubleValue: 1), start: start,
                                                      end: start.addingTimeInterval(30)))
            }
            let seen = try await HKSampleQueryDescriptor(predicates: [.quantitySample(type: steps)], sortDescriptors: []).result(for: store)
            print("saved \(count); sees \(seen.count) step samples")
        } catch {
            print("error: \(error)")
            exit(1)
        }
    }

    /// The first launch of an app: the authorization sheet (answered by the person in the Health app), then a save.
    static func authorizeThenSave(_ steps: Double) async {
        let store = HKHealthStore()
        let stepCount = HKQuantityType(.stepCount)
        do {
            try await store.requestAuthorization(toShare: [stepCount], read: [stepCount, HKQuantityType(.heartRate)])
            let status = store.authorizationStatus(for: stepCount)
            print("authorization answered; step count: \(status == .sharingAuthorized ? "sharing authorized" : "sharing denied")")
            guard status == .sharingAuthorized else { return }
            let end = Date()
            try await store.save(HKQuantitySample(type: stepCount, quantity: HKQuantity(unit: .count(), doubleValue: steps),
                                                  start: end.addingTimeInterval(-600), end: end))
            print("saved \(Int(steps)) steps")
        } catch {
            print("error: \(error)")
            exit(1)
        }
    }
}
