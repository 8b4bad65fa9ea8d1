import Foundation
import HealthModel
import Hummingbird

/// An answer the daemon refuses with: an RFC 9457 problem document (`application/problem+json`) with HealthKit's
/// `HKError.Code` where one applies and the request field at fault (a JSON pointer) where one is known.
struct Problem: Error, Sendable, Equatable {
    var status: HTTPResponse.Status
    var title: String
    var detail: String?
    var code: HKError.Code?
    var field: String?
    /// Extra response headers (`WWW-Authenticate`, `Retry-After`).
    var headers: HTTPFields = [:]

    init(_ status: HTTPResponse.Status, _ title: String, detail: String? = nil, code: HKError.Code? = nil, field: String? = nil) {
        self.status = status
        self.title = title
        self.detail = detail
        self.code = code
        self.field = field
    }

    /// HealthKit's error as HTTP: what the app may not do is 403, what it sent wrong is 400, a store that cannot be
    /// opened 503. The message is HealthKit's own (it tells the app nothing it could not learn embedded).
    init(_ error: HKError, field: String? = nil) {
        let status: HTTPResponse.Status = switch error.code {
        case .errorInvalidArgument, .errorDataSizeExceeded, .errorWorkoutActivityNotAllowed: .badRequest
        case .errorAuthorizationDenied, .errorAuthorizationNotDetermined, .errorRequiredAuthorizationDenied,
             .errorNotPermissibleForGuestUserMode, .errorHealthDataRestricted: .forbidden
        case .errorNoData: .notFound
        case .errorDatabaseInaccessible, .errorHealthDataUnavailable: .serviceUnavailable
        case .errorUserCanceled: .conflict
        default: .badRequest
        }
        self.init(status, error.code.description, detail: error.message, code: error.code, field: field)
    }

    /// The 401 every unknown, malformed, revoked or missing credential gets, the same whatever the cause
    /// (RFC 6750 §3: `invalid_token` when one was presented).
    static func unauthorized(tokenPresented: Bool) -> Problem {
        var problem = Problem(.unauthorized, "unauthorized",
                              detail: "this request needs the bearer token the app received when the person approved it")
        problem.headers[.wwwAuthenticate] = tokenPresented ? #"Bearer realm="healthd", error="invalid_token""# : #"Bearer realm="healthd""#
        return problem
    }

    /// The JSON body.
    var body: Data {
        var object: [String: Any] = ["type": "about:blank", "title": title, "status": status.code]
        if let detail { object["detail"] = detail }
        if let code { object["code"] = code.rawValue }
        if let field { object["field"] = field }
        return (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
    }
}
