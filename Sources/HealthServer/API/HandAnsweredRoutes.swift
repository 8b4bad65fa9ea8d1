import Foundation
import HealthAPI
import HTTPTypes
import OpenAPIRuntime

/// The generated routes, registered on `base` as they are, except the calls apps make most: the sample and anchored
/// queries (`POST /v1/queries/samples`, `/v1/queries/anchored`), whose answers — lists of samples — are written by
/// ``SampleListJSON`` rather than by `JSONEncoder` and the generated `Encodable` code, and saves (`POST /v1/objects`),
/// whose batches of samples it reads (the same JSON, at a fraction of the cost; BENCHMARKS.md). A query itself is decoded
/// as the generated code decodes it, and anything a hand route does not expect (another content type, an `Accept`
/// without JSON, a body that does not decode) goes to the generated route, so a refusal is word for word the generated
/// one.
struct HandAnsweredRoutes<Base: ServerTransport>: ServerTransport {
    typealias Handler = @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)

    let base: Base
    let service: HealthAPIService

    func register(_ handler: @escaping Handler, method: HTTPRequest.Method, path: String) throws {
        let service = service
        let route: Handler = switch (method, path) {
        case (.post, "/v1/queries/samples"):
            Self.answered(Components.Schemas.SampleQuery.self, generated: handler) { try SampleListJSON.encode(try await service.sampleQuery($0)) }
        case (.post, "/v1/queries/anchored"):
            Self.answered(Components.Schemas.AnchoredQuery.self, generated: handler) { try await service.anchoredChangesJSON($0) }
        case (.post, "/v1/objects"):
            Self.saved(generated: handler) { try await service.saveObjects(.init(body: .json($0))) }
        default:
            handler
        }
        try base.register(route, method: method, path: path)
    }

    /// A route that decodes its `Query` as the generated code does and answers with the JSON `answer` writes, handing
    /// what it does not expect to the generated route.
    private static func answered<Query: Decodable & Sendable>(_ type: Query.Type, generated: @escaping Handler,
                                                              answer: @escaping @Sendable (Query) async throws -> [UInt8]) -> Handler {
        { request, body, metadata in
            guard let body, takesJSON(request.headerFields[.contentType]), acceptsJSON(request.headerFields[.accept]) else {
                return try await generated(request, body, metadata)
            }
            let bytes = try await Data(collecting: body, upTo: .max)   // the body middleware has limited its size
            let query: Query
            do {
                query = try ExactDateTranscoder.jsonDecoder().decode(Query.self, from: bytes)
            } catch {
                return try await generated(request, HTTPBody(bytes), metadata)
            }
            let json = try await answer(query)
            var response = HTTPResponse(status: .ok)
            response.headerFields[.contentType] = "application/json; charset=utf-8"
            return (response, HTTPBody(json))
        }
    }

    /// A save whose batch ``SampleListJSON`` reads, handing what it does not expect to the generated route.
    private static func saved(generated: @escaping Handler,
                              save: @escaping @Sendable (Components.Schemas.SampleBatch) async throws -> Operations.SaveObjects.Output) -> Handler {
        { request, body, metadata in
            // A save answers nothing but problems: the generated client asks for `application/problem+json` only.
            guard let body, takesJSON(request.headerFields[.contentType]),
                  acceptsJSON(request.headerFields[.accept], or: "application/problem+json") else {
                return try await generated(request, body, metadata)
            }
            let bytes = try await [UInt8](collecting: body, upTo: .max)   // the body middleware has limited its size
            guard let batch = try? SampleListJSON.decodeBatch(bytes) else { return try await generated(request, HTTPBody(bytes), metadata) }
            switch try await save(batch) {
            case .noContent: return (HTTPResponse(status: .noContent), nil)
            // The service refuses by throwing problems; it answers nothing else.
            default: throw Problem(.internalServerError, "unexpected answer", detail: "the save answered other than 204")
            }
        }
    }

    /// No `Content-Type` (the generated code takes JSON then), or JSON's.
    static func takesJSON(_ contentType: String?) -> Bool {
        guard let contentType else { return true }
        return mediaType(contentType) == "application/json"
    }

    /// No `Accept`, or one that takes JSON (or `other`).
    static func acceptsJSON(_ accept: String?, or other: String? = nil) -> Bool {
        guard let accept else { return true }
        return accept.split(separator: ",").contains { ["application/json", "application/*", "*/*", other].contains(mediaType(String($0))) }
    }

    private static func mediaType(_ value: String) -> String {
        String(value.prefix { $0 != ";" }).trimmingCharacters(in: .whitespaces).lowercased()
    }
}
