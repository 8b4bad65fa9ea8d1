import ArgumentParser
import Foundation
import OpenHealthKit

/// `health trust`: the device makers' certificates the person trusts to sign samples (`HKMetadataKeyDigitalSignature`).
struct TrustCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trust",
        abstract: "The device makers' certificates you trust to sign samples (HKMetadataKeyDigitalSignature); see `health signatures`.",
        subcommands: [List.self, Add.self, Remove.self],
        defaultSubcommand: List.self)

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the certificates you trust to sign samples.")
        @OptionGroup var store: StoreOptions

        func run() throws {
            let person = try store.person(creating: false)
            let signers = try reporting { try person.trustedSigners() }
            guard !signers.isEmpty else {
                print("You trust no certificate to sign samples yet: add a device maker's with `health trust add <file.pem>`.")
                return
            }
            print("Certificates you trust to sign samples:")
            for signer in signers {
                print("  \(signer.fingerprint.prefix(16))  \(signer.subject)  valid until \(signer.notValidAfter.formatted(.iso8601.year().month().day()))")
            }
        }
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Trust the certificates in a PEM file to sign samples.")
        @Argument(help: "A PEM file of one or more certificates (a device maker's).") var file: String
        @OptionGroup var store: StoreOptions

        func run() throws {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { throw CommandFailure("cannot read \(file)") }
            let blocks = text.components(separatedBy: "-----END CERTIFICATE-----").dropLast()
                .map { $0 + "-----END CERTIFICATE-----" }.compactMap { block in block.range(of: "-----BEGIN CERTIFICATE-----").map { String(block[$0.lowerBound...]) } }
            guard !blocks.isEmpty else { throw CommandFailure("\(file) holds no PEM certificate (-----BEGIN CERTIFICATE-----)") }
            let certificates = try blocks.map { block in try reporting { try SignerCertificate(pemEncoded: block) } }
            let person = try store.person()
            for certificate in certificates {
                let added = try reporting { try person.trustSigner(certificate) }
                print("\(added ? "Trusted" : "Already trusted"): \(certificate.subject) (\(certificate.fingerprint.prefix(16)))")
            }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Stop trusting a certificate, named by the start of its fingerprint.")
        @Argument(help: "At least the first 8 hexadecimal digits of its fingerprint (health trust list).") var fingerprint: String
        @OptionGroup var store: StoreOptions

        func run() throws {
            let person = try store.person(creating: false)
            let removed = try reporting { try person.removeTrustedSigner(fingerprint: fingerprint) }
            print("No longer trusted: \(removed.subject) (\(removed.fingerprint.prefix(16)))")
        }
    }
}
