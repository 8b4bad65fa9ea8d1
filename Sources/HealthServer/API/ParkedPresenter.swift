import Foundation
import HealthModel
import HealthStore

/// The daemon's authorization sheet: the request waits in the store (``PendingAuthorizations``) until the person
/// answers it (`health authorize --pending`) or ``timeout`` passes, which counts as a dismissed sheet, as when the
/// person closes HealthKit's without deciding. Nothing is decided for the person.
struct ParkedPresenter: HKAuthorizationPresenter {
    let requests: PendingAuthorizations
    /// How long the request waits for the person.
    var timeout: Duration = .seconds(300)

    func present(_ sheet: AuthorizationSheet) async -> AuthorizationSheet.Response {
        guard let id = try? requests.park(sheet) else { return .dismissed }
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while ContinuousClock.now < deadline, !Task.isCancelled {
            if let answer = try? requests.answer(id) { return answer }
            try? await Task.sleep(for: .milliseconds(100))
        }
        try? requests.expire(id)
        // An answer given just before the deadline stands.
        return (try? requests.answer(id)) ?? .dismissed
    }
}
