import Foundation
import HealthModel
import HealthStore
import Hummingbird

/// OAuth 2.0 bearer tokens (RFC 6750) for every route but the public ones (registering, claiming a credential, the API
/// document): the token names the app the request acts as (``CallingApp``). A missing, malformed, unknown, denied or
/// revoked token is one and the same 401, so nothing tells which registrations exist; a revocation takes effect on the
/// next request, as each is checked against the store.
struct BearerAuthentication<Context: RequestContext>: RouterMiddleware {
    /// Checks tokens: against the store, or while it is locked against the credentials kept when it was locked.
    let locking: StoreLocking
    /// Path prefixes reached without a token.
    let publicPrefixes: [String]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let path = request.uri.path
        if publicPrefixes.contains(where: { path == $0 || path.hasPrefix($0 + "/") }) { return try await next(request, context) }
        guard let header = request.headers[.authorization] else { throw Problem.unauthorized(tokenPresented: false) }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer",
              case let token = String(parts[1]).trimmingCharacters(in: .whitespaces), let manifest = try locking.app(forToken: token) else {
            throw Problem.unauthorized(tokenPresented: true)
        }
        return try await CallingApp.$manifest.withValue(manifest) {
            try await CallingApp.$token.withValue(token) { try await next(request, context) }
        }
    }
}
