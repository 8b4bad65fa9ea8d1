import Foundation
import HealthAPI
import HealthModel
import OpenHealthKit

/// Anchored queries through the daemon: what changed after an anchor, as the calling app's embedded
/// `HKAnchoredObjectQuery` would answer. Anchors stay opaque: sealed by the store for this app, so an app learns from
/// one nothing about rows it may not see, and one made for another app or another store is refused.
extension HealthAPIService {
    /// The generated route's answer; the daemon answers this operation by hand (``HandAnsweredRoutes``), with the same
    /// changes written by `SampleListJSON`.
    func queryAnchoredObjects(_ input: Operations.QueryAnchoredObjects.Input) async throws -> Operations.QueryAnchoredObjects.Output {
        let query = switch input.body { case .json(let body): body }   // the only content type; others are 415 before here
        let answer = try await anchoredChanges(query)
        let list = WireSample.list(answer.samples)
        return .ok(.init(body: .json(.init(samples: list.samples, sources: list.sources, devices: list.devices,
                                           deletedObjects: answer.deleted.map(WireDeletedObject.wire), anchor: Self.anchorText(answer),
                                           anchorValue: answer.integerAnchor))))
    }

    /// The changes an `HKAnchoredObjectQuery` asks for, written by hand as the API's `AnchoredChanges`.
    func anchoredChangesJSON(_ query: Components.Schemas.AnchoredQuery) async throws -> [UInt8] {
        let answer = try await anchoredChanges(query)
        return try SampleListJSON.encode(answer.samples) { members in
            try members.encoded("deletedObjects", answer.deleted.map(WireDeletedObject.wire))
            members.string("anchor", Self.anchorText(answer))
            members.integer("anchorValue", answer.integerAnchor)
        }
    }

    /// What changed after the query's anchor, for the calling app.
    private func anchoredChanges(_ query: Components.Schemas.AnchoredQuery) async throws -> AnchoredPlan.Answer {
        let parts = try Self.parts(query.queries)
        let anchor = try Self.anchor(query)
        let plan = AnchoredPlan(parts: parts, limit: query.limit.flatMap { $0 > 0 ? $0 : nil })
        let attempted = Dictionary(parts.map { ($0.type.identifier, 0) }, uniquingKeysWith: { $1 })
        return try await logged("anchoredQuery", attempted: attempted) { store in
            let answer = try await store.backend().anchoredChanges(plan, after: anchor)
            var counts = attempted
            for sample in answer.samples { counts[sample.sampleType.identifier, default: 0] += 1 }
            return (answer, counts)
        }
    }

    /// The opaque anchor an answer sends (its sealed form, base64).
    private static func anchorText(_ answer: AnchoredPlan.Answer) -> String {
        answer.anchor.wireForm.sealed?.base64EncodedString() ?? ""
    }

    /// The anchor a query starts after: its sealed `anchor`, its integer `anchorValue`, or none (from the start).
    static func anchor(_ query: Components.Schemas.AnchoredQuery) throws -> HKQueryAnchor? {
        switch (query.anchor, query.anchorValue) {
        case (let text?, nil):
            guard let sealed = Data(base64Encoded: text) else {
                throw Problem(.badRequest, "invalid anchor", detail: "/anchor: not an anchor this daemon gave (base64 expected)",
                              code: .errorInvalidArgument, field: "/anchor")
            }
            return .sealed(sealed)
        case (nil, let value?):
            return HKQueryAnchor(fromValue: value)
        case (nil, nil):
            return nil
        case (_?, _?):
            throw Problem(.badRequest, "two anchors", detail: "/anchorValue: give anchor or anchorValue, not both", code: .errorInvalidArgument,
                          field: "/anchorValue")
        }
    }

    /// Query descriptors from the wire (`/queries`), each type known and carried, each predicate compiled.
    static func parts(_ queries: [Components.Schemas.AnchoredQueryPart]) throws -> [AnchoredPlan.QueryPart] {
        try queries.enumerated().map { index, part in
            let pointer = "/queries/\(index)"
            guard let type = HKObjectType.type(forIdentifier: part._type) as? HKSampleType else {
                throw Self.unknownType(part._type, at: pointer + "/type", kind: "sample type")
            }
            try Self.checkCarried(type, at: pointer + "/type")
            return AnchoredPlan.QueryPart(type: type, filter: try part.predicate.map { try Self.filter($0, at: pointer + "/predicate") })
        }
    }

    /// A 400 for a type whose samples the API does not carry yet (every sample type of the model is carried today; a
    /// new kind stays refused until the wire has its fields): answering them as bare samples would drop what makes them
    /// what they are.
    static func checkCarried(_ type: HKSampleType, at pointer: String) throws {
        guard WireSample.carries(type) else {
            throw Problem(.badRequest, "type not served yet",
                          detail: "\(pointer): \(type.identifier) samples do not go through the daemon yet "
                              + "(quantity, category, workout, correlation and CDA document samples, states of mind, scored assessments, "
                              + "audiograms, vision prescriptions, clinical records, electrocardiograms, heartbeat series and workout routes do)",
                          code: .errorInvalidArgument, field: pointer)
        }
    }
}
