import Hummingbird

/// Refuses a request body over `maximumBytes` (413, before any of it is decoded), whether it declares its length or
/// streams in chunks; a body within the limit is collected so the handler reads it whole.
struct BodyLimit<Context: RequestContext>: RouterMiddleware {
    let maximumBytes: Int

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var request = request
        let tooLarge = Problem(.contentTooLarge, "request body too large",
                               detail: "the request body is over the daemon's limit of \(maximumBytes) bytes; send smaller batches",
                               code: .errorDataSizeExceeded)
        if let declared = request.headers[.contentLength].flatMap(Int.init), declared > maximumBytes { throw tooLarge }
        do {
            _ = try await request.collectBody(upTo: maximumBytes)
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw tooLarge
        }
        return try await next(request, context)
    }
}
