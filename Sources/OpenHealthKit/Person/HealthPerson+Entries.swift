public import Foundation
import HealthStore

/// What the person enters and removes by hand, as in the Health app's "Add Data" and "Delete": the person's own
/// entries come from the Health app as their source, and any source's sample can be deleted.
extension HealthPerson {
    /// The source of what the person enters by hand.
    public static let healthAppSource = HKSource(name: "Health", bundleIdentifier: "com.apple.Health")

    /// Saves a quantity the person entered (source: the Health app; `HKMetadataKeyWasUserEntered`), after the checks
    /// an app's sample gets: a unit that fits the type, a finite value, an end not before the start. Apps' queries hear
    /// of it as of any save.
    @discardableResult
    public func addEntry(_ type: HKQuantityType, value: Double, unit: HKUnit, start: Date, end: Date) throws -> HKQuantitySample {
        let quantity = HKQuantity(unit: unit, doubleValue: value)
        let checked = try HKQuantitySample.check(type: type, quantity: quantity, start: start, end: end,
                                                 metadata: [HKMetadataKeyWasUserEntered: true])
        let sample = HKQuantitySample.make(type: type, quantity: quantity, start: start, end: end, metadata: checked,
                                           sourceRevision: HKSourceRevision(source: Self.healthAppSource, version: nil), device: nil)
        try sampleStore.importSamples([sample])
        return sample
    }

    /// Deletes one sample, whichever source saved it; apps' anchored queries hear of the deletion. Returns its type.
    /// An unknown UUID, or a member of a correlation (deleted only with it), is `errorInvalidArgument`.
    @discardableResult
    public func deleteSample(_ uuid: UUID) throws -> HKSampleType {
        let identifier = try sampleStore.deleteAsPerson(uuid)
        guard let type = HKObjectType.type(forIdentifier: identifier) as? HKSampleType else {
            throw HKError(.errorInvalidArgument, "sample \(uuid) is of an unknown type \(identifier)")
        }
        return type
    }
}
