import Foundation
import HealthModel
import HealthStore

/// The daemon's sheets: an authorization request, a record-sharing sheet or a per-object sheet waits in the store
/// (``PendingAuthorizations``, ``PendingRecordShares``, ``PendingObjectReads``) until the person answers it (`health authorize --pending`) or
/// ``timeout`` passes, which counts as a closed sheet, as when the person closes HealthKit's without deciding. Nothing
/// is decided for the person.
struct ParkedPresenter: HKAuthorizationPresenter {
    let requests: PendingAuthorizations
    let recordShares: PendingRecordShares
    let objectReads: PendingObjectReads
    /// The store folder: when its daemon stops, the sheet closes.
    let directory: URL
    /// How long a sheet waits for the person.
    var timeout: Duration = .seconds(300)

    init(database: HealthDatabase, timeout: Duration = .seconds(300)) {
        requests = PendingAuthorizations(database: database)
        recordShares = PendingRecordShares(database: database)
        objectReads = PendingObjectReads(database: database)
        directory = database.directory
        self.timeout = timeout
    }

    func present(_ sheet: AuthorizationSheet) async -> AuthorizationSheet.Response {
        guard let id = try? requests.park(sheet) else { return .dismissed }
        return await wait(closed: .dismissed) { try requests.answer(id) } expire: { try requests.expire(id) }
    }

    func present(_ sheet: RecordSharingSheet) async -> RecordSharingSheet.Response {
        guard let id = try? recordShares.park(sheet) else { return .cancelled }
        return await wait(closed: .cancelled) { try recordShares.answer(id) } expire: { try recordShares.expire(id) }
    }

    func present(_ sheet: ObjectAuthorizationSheet) async -> ObjectAuthorizationSheet.Response {
        guard let id = try? objectReads.park(sheet) else { return .dismissed }
        return await wait(closed: .dismissed) { try objectReads.answer(id) } expire: { try objectReads.expire(id) }
    }

    /// Polls for the person's answer until ``timeout`` (or the daemon stops); then expires the sheet, and it counts as
    /// `closed`.
    private func wait<Response>(closed: Response, answer: () throws -> Response?, expire: () throws -> Void) async -> Response {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while ContinuousClock.now < deadline, !Task.isCancelled, !DaemonStopping.isStopping(directory) {
            if let answer = try? answer() { return answer }
            try? await Task.sleep(for: .milliseconds(100))
        }
        try? expire()
        // An answer given just before the deadline stands.
        return ((try? answer()) ?? nil) ?? closed
    }
}
