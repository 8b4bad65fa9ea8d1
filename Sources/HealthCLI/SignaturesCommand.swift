import ArgumentParser
import Foundation
import OpenHealthKit

/// `health signatures`: the signed samples in the store, and what each signature says against the certificates the
/// person trusts. A sample is never refused for its signature; this only marks it.
struct SignaturesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "signatures",
        abstract: "List the signed samples (HKMetadataKeyDigitalSignature) and whether each signature verifies against the certificates you trust.",
        discussion: """
            verified: signed by a certificate you trust, over these values. values differ: signed by one you trust, over \
            other values (altered after signing). content not understood: signed by one you trust, in a layout OpenHealthKit \
            cannot compare. untrusted signer: a valid signature by a certificate you do not trust (health trust add). \
            invalid: not a signature that verifies.
            """)

    @Option(help: "Only samples of this type (an identifier, or a short name such as bloodGlucose).") var type: String?
    @OptionGroup var store: StoreOptions

    func run() async throws {
        let person = try store.person(creating: false)
        let types: [HKSampleType]
        if let type {
            guard let sampleType = try objectType(named: type) as? HKSampleType else { throw CommandFailure("\(type) is not a sample type") }
            types = [sampleType]
        } else {
            types = try reporting { try person.summary() }.map(\.type)
        }
        var counts: [SampleSignatureVerification.Status: Int] = [:]
        let formatter = ISO8601DateFormatter()
        for type in types {
            let checked: [(sample: HKSample, verification: SampleSignatureVerification)]
            do { checked = try await person.signedSamples(of: type) } catch let error as HKError { throw CommandFailure(error.message) }
            for (sample, verification) in checked {
                counts[verification.status, default: 0] += 1
                print("\(formatter.string(from: sample.startDate))  \(sample.uuid.uuidString.prefix(8))  \(type.identifier)  \(Self.word(verification.status)): \(verification.reason)")
            }
        }
        let total = counts.values.reduce(0, +)
        guard total > 0 else {
            print("No sample in the store carries a signature.")
            return
        }
        let parts = SampleSignatureVerification.Status.allCases.compactMap { status in counts[status].map { "\($0) \(Self.word(status))" } }
        print("\(total) signed sample\(total == 1 ? "" : "s"): \(parts.joined(separator: ", ")).")
    }

    static func word(_ status: SampleSignatureVerification.Status) -> String {
        switch status {
        case .unsigned: "unsigned"
        case .verified: "verified"
        case .valuesDiffer: "values differ"
        case .contentNotUnderstood: "content not understood"
        case .untrustedSigner: "untrusted signer"
        case .invalid: "invalid"
        }
    }
}
