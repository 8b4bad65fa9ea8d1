import Foundation
import OpenHealthKit

/// An app written as HealthKit apps are — `HKHealthStore()`, save, query — that knows nothing of where the store is.
/// With `OPENHEALTHKIT_SERVER` and `OPENHEALTHKIT_TOKEN` set, every call goes to the daemon (`health serve`) as the
/// app the token names; the tests run two of them at once as a user who cannot open the store's files.
///
///     step-counter <samples to save> [<a file to try to open>]
///
/// Saves that many one-step samples, then prints how many step samples it can see; with a file, first prints whether
/// it could open it (the store's database, in the tests).
@main
struct StepCounter {
    static func main() async {
        let arguments = CommandLine.arguments
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
}
