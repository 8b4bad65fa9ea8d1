public import Foundation
public import HealthModel

extension HKHealthStore {
    /// What `sample`'s `HKMetadataKeyDigitalSignature` says, checked against the device makers' certificates the person
    /// trusts (`health trust`, the Health app's Sources). The stored sample is checked, not the copy passed in, so a
    /// value changed in memory cannot pass for a signed one. OpenHealthKit's extension; HealthKit has none. The same on
    /// an embedded store and through the daemon, where the check is made and the person's certificates stay.
    ///
    /// Throws `errorNoData` when the sample is not one this app may see (hidden and absent look alike), and
    /// `errorDatabaseInaccessible` while the store is locked. An unsigned sample is `.unsigned`, never an error.
    public func verifyDigitalSignature(of sample: HKSample) async throws -> SampleSignatureVerification {
        try await backend().signatureVerification(of: sample.uuid, type: sample.sampleType)
    }
}
