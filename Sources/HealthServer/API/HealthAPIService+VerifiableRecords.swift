import Foundation
import HealthAPI
import HealthModel
import OpenHealthKit

/// `HKVerifiableClinicalRecordQuery`: the matching records are put before the person on a record-sharing sheet the
/// daemon holds (``ParkedPresenter``) until the person chooses (`health authorize --pending`) or it times out, as a
/// closed sheet (409, `errorUserCanceled`). The app gets only what the person shared, and the access log counts only
/// that.
extension HealthAPIService {
    func queryVerifiableRecords(_ input: Operations.QueryVerifiableRecords.Input) async throws -> Operations.QueryVerifiableRecords.Output {
        let query = switch input.body { case .json(let body): body }   // the only content type; others are 415 before here
        let filter = try query.predicate.map { try Self.filter($0, at: "/predicate") }
        let type = HKVerifiableClinicalRecord.sampleTypeIdentifier
        return try await logged("verifiableRecordQuery", attempted: [type: 0]) { store in
            // The engine's query, with this request's own wait (the app's store's presenter waits the default).
            let samples = try store.sampleStore()
            let engine = EmbeddedBackend(samples: samples, app: store.configuration.app,
                                         presenter: ParkedPresenter(database: samples.database, timeout: .seconds(query.timeoutSeconds ?? 300)))
            let records = try await engine.verifiableRecords(types: query.recordTypes, sourceTypes: query.sourceTypes ?? [], matching: filter)
            return (.ok(.init(body: .json(.init(records: records.map(WireVerifiableRecord.wire))))), [type: records.count])
        }
    }
}
