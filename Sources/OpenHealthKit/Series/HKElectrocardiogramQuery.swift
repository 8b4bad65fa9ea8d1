public import Foundation
import HealthStore
import Synchronization

/// Reads the voltage measurements of an electrocardiogram, one call of the handler per measurement, then `.done`.
///
/// ```swift
/// let query = HKElectrocardiogramQuery(ecg) { _, result in
///     switch result {
///     case .measurement(let measurement): trace.append(measurement.quantity(for: .appleWatchSimilarToLeadI))
///     case .done: draw(trace)
///     case .error(let error): show(error)
///     }
/// }
/// store.execute(query)
/// ```
///
/// An electrocardiogram the app may not read is reported exactly like one that is not in the store: `errorNoData`.
open class HKElectrocardiogramQuery: HKQuery, @unchecked Sendable {
    // @unchecked: set-once properties; the running task is behind a Mutex.

    /// What one call of the handler carries.
    public enum Result: @unchecked Sendable {
        // @unchecked: measurements are immutable; errors are HKErrors.
        case measurement(HKElectrocardiogram.VoltageMeasurement)
        case done
        case error(any Error)
    }

    private let electrocardiogram: HKElectrocardiogram
    private let handler: @Sendable (HKElectrocardiogramQuery, Result) -> Void
    private let task = Mutex<Task<Void, Never>?>(nil)

    public init(_ ecg: HKElectrocardiogram, dataHandler: @escaping @Sendable (HKElectrocardiogramQuery, Result) -> Void) {
        electrocardiogram = ecg
        handler = dataHandler
        super.init(objectType: HKObjectType.electrocardiogramType(), predicate: HKQuery.predicateForObject(with: ecg.uuid))
    }

    /// The measurements, when the reader of `store` may see the electrocardiogram: each voltage at its time, from the
    /// sampling frequency.
    static func measurements(of ecg: HKElectrocardiogram, on store: HKHealthStore) async throws -> [HKElectrocardiogram.VoltageMeasurement] {
        let (frequency, voltages) = try await store.backend().electrocardiogramVoltages(of: ecg.uuid)
        let hertz = frequency ?? 0
        return voltages.enumerated().map { index, microvolts in
            HKElectrocardiogram.VoltageMeasurement(timeSinceSampleStart: hertz > 0 ? Double(index) / hertz : 0, microvolts: microvolts)
        }
    }
}

extension HKElectrocardiogramQuery: ExecutableQuery {
    func start(on store: HKHealthStore) {
        let ecg = electrocardiogram
        let started = Task.detached { [self] in
            do {
                for measurement in try await Self.measurements(of: ecg, on: store) {
                    guard !Task.isCancelled else { return }
                    handler(self, .measurement(measurement))
                }
                guard !Task.isCancelled else { return }
                handler(self, .done)
            } catch {
                guard !Task.isCancelled else { return }
                handler(self, .error(error))
            }
        }
        task.withLock { $0 = started }
    }

    func stop() {
        task.withLock { $0?.cancel() }
    }
}
