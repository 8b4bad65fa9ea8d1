import Hummingbird

/// One listener's routes, by path: the apps' API (`/v1/…`, `/openapi.json`), the person's lock routes (`/person/…`)
/// and the web Health app (everything else). A listener that may not carry the person's secrets — plain HTTP on an
/// address other than loopback — has no person routes and no web app: those paths are the API's 404.
struct PathDispatch: HTTPResponder {
    typealias Context = BasicRequestContext
    let api: RouterResponder<BasicRequestContext>
    let person: RouterResponder<BasicRequestContext>?
    let web: RouterResponder<BasicRequestContext>?

    func respond(to request: Request, context: Context) async throws -> Response {
        let path = request.uri.path
        if path.hasPrefix("/v1/") || path == "/v1" || path == "/openapi.json" {
            return try await api.respond(to: request, context: context)
        }
        if path == LockRoutes.prefix || path.hasPrefix(LockRoutes.prefix + "/") {
            return try await (person ?? api).respond(to: request, context: context)
        }
        return try await (web ?? api).respond(to: request, context: context)
    }

    /// Whether a TCP listener may carry the person's passphrase and pages: on loopback (the person's own machine), or
    /// over HTTPS anywhere.
    static func carriesPersonRoutes(host: String, secure: Bool) -> Bool {
        secure || host == "127.0.0.1" || host == "::1" || host == "localhost" || host.hasPrefix("127.")
    }
}
