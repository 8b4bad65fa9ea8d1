import Foundation
import HealthAPI
import Hummingbird
import OpenAPIRuntime

/// The routes whose answer waits for the person on a sheet the daemon holds (``ParkedPresenter``). Their connection closes
/// after the answer, whatever it is (``ProblemMiddleware`` says so on a refusal too).
let parkedPaths: Set<String> = ["/v1/authorization/requests", "/v1/authorization/object-requests", "/v1/queries/verifiable-records"]

/// The request body: refused over `maximumBytes` (413, before any of it is decoded), whether it declares its length or
/// streams in chunks; within the limit, collected so the handler reads it whole, and kept to name the field of a date
/// the decoder refused (JSON decoding reports a bad date without its place). A null where the document allows none is refused,
/// and so is a body over the document's limits.
struct RequestBodyMiddleware<Context: RequestContext>: RouterMiddleware {
    let maximumBytes: Int
    /// The document's limits on lengths, sizes and ranges, checked on the collected body.
    let limits: SchemaLimits
    /// The places the document allows no null, checked on the collected body.
    let nulls: NullValues

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var request = request
        let tooLarge = Problem(.contentTooLarge, "request body too large",
                               detail: "the request body is over the daemon's limit of \(maximumBytes) bytes; send smaller batches",
                               code: .errorDataSizeExceeded)
        if let declared = request.headers[.contentLength].flatMap(Int.init), declared > maximumBytes { throw tooLarge }
        let body: ByteBuffer
        do {
            body = try await request.collectBody(upTo: maximumBytes)
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw tooLarge
        }
        let data = Data(buffer: body)
        if !data.isEmpty {
            if let problem = nulls.violation(method: request.method, path: request.uri.path, body: data) { throw problem }
            if let problem = limits.violation(method: request.method, path: request.uri.path, body: data) { throw problem }
        }
        do {
            guard request.method == .post, parkedPaths.contains(request.uri.path) else { return try await next(request, context) }
            // The answer waits for the person: when the app stops waiting (closes its connection), the handler is
            // cancelled, and the sheet closes at once instead of at its timeout. (The body was collected above; Hummingbird
            // replays it to the handler, then watches the connection. The connection closes after the answer, which says so.)
            var response = try await request.body.consumeWithCancellationOnInboundClose { body in
                var parked = request
                parked.body = body
                return try await next(parked, context)
            }
            // Said, so the client opens a new connection for its next request rather than reusing this closing one.
            response.headers[.connection] = "close"
            return response
        } catch let error as ServerError {
            guard let invalid = error.underlyingError as? InvalidDateText else { throw error }
            let field = Self.pointer(to: invalid.text, in: data)
            throw Problem(.badRequest, "invalid request body", detail: (field.map { "\($0): " } ?? "") + invalid.description,
                          code: .errorInvalidArgument, field: field)
        }
    }

    /// The JSON pointer of the first string equal to `text` in `json` (array order, then key order), or nil.
    static func pointer(to text: String, in json: Data) -> String? {
        func search(_ value: Any, _ path: [String]) -> [String]? {
            switch value {
            case let string as String: return string == text ? path : nil
            case let array as [Any]:
                for (index, element) in array.enumerated() { if let found = search(element, path + [String(index)]) { return found } }
                return nil
            case let object as [String: Any]:
                for key in object.keys.sorted() {
                    if let found = search(object[key]!, path + [key]) { return found }
                }
                return nil
            default: return nil
            }
        }
        guard let root = try? JSONSerialization.jsonObject(with: json, options: [.fragmentsAllowed]), let path = search(root, []) else { return nil }
        return JSONPointer.to(path)
    }
}
