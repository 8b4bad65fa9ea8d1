import Foundation
import HealthAPI
import HealthModel
import HealthStore

/// Writes while the store is locked: kept in its journal (``StoreLocking``), and replayed when it is unlocked, each
/// through the very handler it came to, as the app that made it.
extension HealthAPIService {
    /// Makes a write with `work`, or keeps it in the journal while the store is locked (noted in the access log as kept);
    /// returns whether it was kept. A write that meets the store locked as it starts is kept as well: no write the app
    /// was told succeeded is lost, and none is made twice (a locked store refuses it before anything is written).
    func writing<Body: Encodable>(_ operation: LockedWrite.Operation, _ body: Body, counts: [String: Int],
                                  _ work: () async throws -> Void) async throws -> Bool {
        if try keep(operation, body, counts: counts) { return true }
        do {
            try await work()
            return false
        } catch let error as HKError where error.code == .errorDatabaseInaccessible && locking.keepsWrites {
            if try keep(operation, body, counts: counts) { return true }
            throw error
        }
    }

    private func keep<Body: Encodable>(_ operation: LockedWrite.Operation, _ body: Body, counts: [String: Int]) throws -> Bool {
        guard locking.keepsWrites else { return false }
        let app = try CallingApp.required()
        guard let token = CallingApp.token, let (registration, tokenHash) = AppRegistrations.credential(ofToken: token) else {
            throw Problem.unauthorized(tokenPresented: false)
        }
        let write = LockedWrite(registration: registration, tokenHash: tokenHash, bundleIdentifier: app.bundleIdentifier, madeAt: Date(),
                                operation: operation, body: try JSONEncoder().encode(body))
        guard try locking.keep(write) else { return false }
        for (type, count) in counts.sorted(by: { $0.key < $1.key }) {
            recorder.note(app: app.bundleIdentifier, operation: operation.logName, type: type, count: count, outcome: "kept while locked")
        }
        return true
    }

    /// Makes a kept write, as the app that made it if its credential is still good, through the handler it came to — the
    /// same authorization and validation. True when it was made; false when it was refused (as it would be now, noted in
    /// the access log). Throws when the store cannot take it (locked again, or failing): the replay stops there.
    func replay(_ write: LockedWrite) async throws -> Bool {
        guard let app = try registrations.app(registration: write.registration, tokenHash: write.tokenHash) else {
            recorder.note(app: write.bundleIdentifier, operation: write.operation.logName, type: nil, count: 0, outcome: "denied")
            return false
        }
        let decoder = JSONDecoder()
        do {
            try await CallingApp.$manifest.withValue(app) {
                switch write.operation {
                case .save:
                    _ = try await saveObjects(.init(body: .json(decoder.decode(Components.Schemas.SampleBatch.self, from: write.body))))
                case .delete:
                    _ = try await deleteObjects(.init(body: .json(decoder.decode(Components.Schemas.ObjectList.self, from: write.body))))
                case .addWorkoutSamples:
                    _ = try await addWorkoutSamples(.init(body: .json(decoder.decode(Components.Schemas.WorkoutSamples.self, from: write.body))))
                case .saveQuantitySeries:
                    _ = try await saveQuantitySeries(.init(body: .json(decoder.decode(Components.Schemas.QuantitySeriesSave.self, from: write.body))))
                case .saveHeartbeatSeries:
                    _ = try await saveHeartbeatSeries(.init(body: .json(decoder.decode(Components.Schemas.HeartbeatSeriesSave.self, from: write.body))))
                }
            }
            return true
        } catch let problem as Problem where problem.status.code < 500 {
            return false   // refused now as it would have been then; the access log has it
        }
    }
}

extension LockedWrite.Operation {
    /// The operation's name in the access log.
    var logName: String {
        switch self {
        case .delete: "delete"
        default: "save"
        }
    }
}
