import Foundation
import HealthAPI
import HealthModel
import OpenHealthKit

/// What a sample's digital signature says (OpenHealthKit's `HKHealthStore.verifyDigitalSignature(of:)`): checked here,
/// against the certificates the person trusts, on the stored sample and only one the app may see. The list of trusted
/// certificates never leaves the daemon: an app learns what it says about samples it can read, nothing more.
extension HealthAPIService {
    func verifySampleSignature(_ input: Operations.VerifySampleSignature.Input) async throws -> Operations.VerifySampleSignature.Output {
        let reference = switch input.body { case .json(let body): body }   // the only content type; others are 415 before here
        let uuid = try Self.uuid(reference.uuid)
        guard let type = HKObjectType.type(forIdentifier: reference._type) as? HKSampleType else {
            throw Self.unknownType(reference._type, at: "/type", kind: "sample type")
        }
        return try await logged("query", attempted: [type.identifier: 0]) { store in
            let verification = try await store.backend().signatureVerification(of: uuid, type: type)
            let status = Components.Schemas.SignatureVerification.StatusPayload(rawValue: verification.status.rawValue) ?? .invalid
            let wire = Components.Schemas.SignatureVerification(status: status, signer: verification.signer, reason: verification.reason)
            return (.ok(.init(body: .json(wire))), [type.identifier: 1])
        }
    }
}
