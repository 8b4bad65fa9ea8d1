import Foundation
import HealthAPI
import HealthModel
import Hummingbird
import Logging
import OpenAPIRuntime

/// Turns every failure into an RFC 9457 problem document: the handlers' ``Problem``s and `HKError`s, the generated
/// code's refusals of a body that does not match the API document (naming the field), Hummingbird's own errors. An
/// unexpected error is logged and answered 500 with nothing of it revealed.
struct ProblemMiddleware<Context: RequestContext>: RouterMiddleware {
    let logger: Logger

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            var response = Self.response(for: problem(error, request: request))
            // A parked route's connection closes after its answer, a refusal too: said, so the client does not reuse it.
            if request.method == .post, parkedPaths.contains(request.uri.path) { response.headers[.connection] = "close" }
            return response
        }
    }

    static func response(for problem: Problem) -> Response {
        var headers = problem.headers
        headers[.contentType] = "application/problem+json"
        return Response(status: problem.status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: problem.body)))
    }

    private func problem(_ error: any Error, request: Request) -> Problem {
        switch error {
        case let problem as Problem: return problem
        case let error as HKError: return Problem(error)
        case let error as ServerError: return problem(error, request: request)
        case let error as HTTPError:
            return Problem(error.status, error.status.reasonPhrase, detail: error.body)
        default:
            logger.error("unexpected error", metadata: ["path": "\(request.uri.path)", "error": "\(error)"])
            return Problem(.internalServerError, "internal error", detail: "the daemon failed to answer; its log has the cause")
        }
    }

    private func problem(_ error: ServerError, request: Request) -> Problem {
        switch error.underlyingError {
        case let problem as Problem: return problem
        case let error as HKError: return Problem(error)
        case let error as DecodingError: return Self.problem(error)
        default:
            guard (400..<500).contains(error.httpStatus.code) else {
                logger.error("unexpected error", metadata: ["path": "\(request.uri.path)", "error": "\(error.underlyingError)"])
                return Problem(.internalServerError, "internal error", detail: "the daemon failed to answer; its log has the cause")
            }
            return Problem(error.httpStatus, error.httpStatus.reasonPhrase, detail: error.causeDescription)
        }
    }

    /// A body that does not decode as the API document says: which field, and why.
    static func problem(_ error: DecodingError) -> Problem {
        let (path, reason): ([any CodingKey], String) = switch error {
        case .keyNotFound(let key, let context): (context.codingPath + [key], "is required")
        case .typeMismatch(let type, let context): (context.codingPath, "must be \(Self.kind(type)); \(context.debugDescription)")
        case .valueNotFound(let type, let context): (context.codingPath, "must be \(Self.kind(type)), not null")
        case .dataCorrupted(let context): (context.codingPath, context.debugDescription)
        @unknown default: ([], "\(error)")
        }
        let pointer = path.isEmpty ? nil : JSONPointer.to(path.map { $0.intValue.map(String.init) ?? $0.stringValue })
        let detail = pointer.map { "\($0) \(reason)" } ?? "the request body is not valid: \(reason)"
        return Problem(.badRequest, "invalid request body", detail: detail, code: .errorInvalidArgument, field: pointer)
    }

    private static func kind(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Double.Type, is Float.Type: "a number"
        case is Int.Type, is Int64.Type: "an integer"
        case is Bool.Type: "true or false"
        default: "\(type)"
        }
    }
}
