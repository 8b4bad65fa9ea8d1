import Hummingbird

/// 405 Method Not Allowed, with `Allow` (RFC 9110 §15.5.6), for a path the API document has but not with the request's
/// method; a path it does not have stays 404.
struct AllowedMethods<Context: RequestContext>: RouterMiddleware {
    let document: APIDocument

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let matching = document.paths(matching: request.uri.path)
        let allowed = matching.reduce(into: Set<HTTPRequest.Method>()) { $0.formUnion($1.methods.keys) }
        guard matching.isEmpty || allowed.contains(request.method) else {
            let names = allowed.map(\.rawValue).sorted().joined(separator: ", ")
            var problem = Problem(.methodNotAllowed, "method not allowed", detail: "\(request.uri.path) takes \(names), not \(request.method.rawValue)")
            problem.headers[.allow] = names
            throw problem
        }
        return try await next(request, context)
    }
}
