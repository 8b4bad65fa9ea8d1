import Foundation
import HealthAPI
import Hummingbird

/// 405 Method Not Allowed, with `Allow` (RFC 9110 §15.5.6), for a path the API document has but not with the request's
/// method; a path it does not have stays 404. The table is read from the document the daemon serves, so the two agree.
struct AllowedMethods<Context: RequestContext>: RouterMiddleware {
    /// Each path of the document as its segments (`nil`: a `{parameter}`), with the methods it takes.
    let paths: [(segments: [String?], methods: Set<HTTPRequest.Method>)]

    init(document: String = OpenAPIDocument.json) {
        let object = (try? JSONSerialization.jsonObject(with: Data(document.utf8))) as? [String: Any]
        let documented = object?["paths"] as? [String: [String: Any]] ?? [:]
        var paths = documented.map { path, operations in
            (segments: path.split(separator: "/").map { $0.hasPrefix("{") ? nil : String($0) },
             methods: Set(operations.keys.compactMap { HTTPRequest.Method($0.uppercased()) }))
        }
        paths.append((["openapi.json"], [.get]))
        self.paths = paths
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let segments = request.uri.path.split(separator: "/")
        let matching = paths.filter { path in
            path.segments.count == segments.count && zip(path.segments, segments).allSatisfy { $0 == nil || $0! == $1 }
        }
        let allowed = matching.reduce(into: Set<HTTPRequest.Method>()) { $0.formUnion($1.methods) }
        guard matching.isEmpty || allowed.contains(request.method) else {
            let names = allowed.map(\.rawValue).sorted().joined(separator: ", ")
            var problem = Problem(.methodNotAllowed, "method not allowed", detail: "\(request.uri.path) takes \(names), not \(request.method.rawValue)")
            problem.headers[.allow] = names
            throw problem
        }
        return try await next(request, context)
    }
}
