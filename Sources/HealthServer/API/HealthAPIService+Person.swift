import Foundation
import HealthAPI
import HealthModel
import OpenHealthKit

/// What an app may learn of the person herself: her characteristics and the units she prefers, and the sources of the
/// samples it may see — each as the app's own `HKHealthStore` answers it.
extension HealthAPIService {
    /// A characteristic: empty when not entered or when the app may not read it (which look the same, as in HealthKit).
    func readCharacteristic(_ input: Operations.ReadCharacteristic.Input) async throws -> Operations.ReadCharacteristic.Output {
        let identifier = input.path.identifier
        guard let type = HKObjectType.type(forIdentifier: identifier) as? HKCharacteristicType else {
            throw Self.unknownType(identifier, at: "/path/identifier", kind: "characteristic type")
        }
        let characteristic = HKCharacteristicTypeIdentifier(type.identifier)
        return try await logged("read", attempted: [type.identifier: 0]) { store in
            var answer = Components.Schemas.Characteristic()
            if let text = try store.backend().characteristic(characteristic) {
                if characteristic == .dateOfBirth { answer.dateOfBirth = text } else { answer.code = Int(text) }
            }
            let found = answer.code != nil || answer.dateOfBirth != nil
            return (.ok(.init(body: .json(answer))), [type.identifier: found ? 1 : 0])
        }
    }

    /// `preferredUnits(for:)`: one unit string per quantity type asked.
    func preferredUnits(_ input: Operations.PreferredUnits.Input) async throws -> Operations.PreferredUnits.Output {
        let list = switch input.body { case .json(let body): body }   // the only content type; others are 415 before here
        let types = try list.types.enumerated().map { index, identifier in
            guard let type = HKObjectType.type(forIdentifier: identifier) as? HKQuantityType else {
                throw Self.unknownType(identifier, at: "/types/\(index)", kind: "quantity type")
            }
            return type
        }
        return try await logged("preferredUnits", attempted: [:]) { store in
            let units = try await store.preferredUnits(for: Set(types))
            let strings = Dictionary(uniqueKeysWithValues: units.map { ($0.key.identifier, $0.value.unitString) })
            return (.ok(.init(body: .json(.init(units: .init(additionalProperties: strings))))), [:])
        }
    }

    /// `HKSourceQuery`: the sources of the samples of a type the app may see; only itself when it may not read the type.
    func querySources(_ input: Operations.QuerySources.Input) async throws -> Operations.QuerySources.Output {
        let query = switch input.body { case .json(let body): body }   // the only content type; others are 415 before here
        guard let type = HKObjectType.type(forIdentifier: query._type) as? HKSampleType else {
            throw Self.unknownType(query._type, at: "/type", kind: "sample type")
        }
        let filter = try query.predicate.map { try Self.filter($0, at: "/predicate") }
        return try await logged("querySources", attempted: [type.identifier: 0]) { store in
            let sources = try await store.backend().sources(of: type, matching: filter)
            let wires = sources.map { Components.Schemas.Source(name: $0.name, bundleIdentifier: $0.bundleIdentifier) }
            return (.ok(.init(body: .json(.init(sources: wires)))), [type.identifier: sources.count])
        }
    }
}

extension HealthAPIService {
    /// `HKActivitySummaryQuery`'s results: the summaries the app may read that match, in day order.
    func queryActivitySummaries(_ input: Operations.QueryActivitySummaries.Input) async throws -> Operations.QueryActivitySummaries.Output {
        let query = switch input.body { case .json(let body): body }   // the only content type; others are 415 before here
        let filter = try query.predicate.map { try Self.filter($0, at: "/predicate") }
        let type = HKObjectType.activitySummaryType().identifier
        return try await logged("query", attempted: [type: 0]) { store in
            let summaries = try await store.backend().activitySummaries(matching: filter)
            return (.ok(.init(body: .json(.init(summaries: summaries.map(WireActivitySummary.wire))))), [type: summaries.count])
        }
    }

    /// `HKUserAnnotatedMedicationQuery`'s results: the medications the person shared with the app that match, in the order
    /// they were added.
    func queryMedications(_ input: Operations.QueryMedications.Input) async throws -> Operations.QueryMedications.Output {
        let query = switch input.body { case .json(let body): body }   // the only content type; others are 415 before here
        let filter = try query.predicate.map { try Self.filter($0, at: "/predicate") }
        let type = HKObjectType.userAnnotatedMedicationType().identifier
        return try await logged("query", attempted: [type: 0]) { store in
            let medications = try await store.backend().userAnnotatedMedications(matching: filter, limit: query.limit)
            return (.ok(.init(body: .json(.init(medications: medications.map(WireMedication.wire))))), [type: medications.count])
        }
    }
}
