import Foundation
import HealthAPI
import HTTPTypes
import OpenAPIRuntime

/// The generated routes, registered on `base` as they are, except `POST /v1/queries/samples`: an `HKSampleQuery` is the
/// call apps make most, and its answer is written by ``SampleListJSON`` rather than by `JSONEncoder` and the generated
/// `Encodable` code (the same JSON, at a fraction of the cost; BENCHMARKS.md). The query itself is decoded as the
/// generated code decodes it, and anything the hand route does not expect (another content type, an `Accept` without
/// JSON, a body that does not decode) goes to the generated route, so a refusal is word for word the generated one.
struct HandAnsweredRoutes<Base: ServerTransport>: ServerTransport {
    typealias Handler = @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)

    let base: Base
    let service: HealthAPIService

    func register(_ handler: @escaping Handler, method: HTTPRequest.Method, path: String) throws {
        if method == .post, path == "/v1/queries/samples" {
            try base.register(Self.sampleQuery(service, generated: handler), method: method, path: path)
        } else {
            try base.register(handler, method: method, path: path)
        }
    }

    private static func sampleQuery(_ service: HealthAPIService, generated: @escaping Handler) -> Handler {
        { request, body, metadata in
            guard let body, takesJSON(request.headerFields[.contentType]), acceptsJSON(request.headerFields[.accept]) else {
                return try await generated(request, body, metadata)
            }
            let bytes = try await Data(collecting: body, upTo: .max)   // the body middleware has limited its size
            let query: Components.Schemas.SampleQuery
            do {
                query = try decoder().decode(Components.Schemas.SampleQuery.self, from: bytes)
            } catch {
                return try await generated(request, HTTPBody(bytes), metadata)
            }
            let list = try SampleListJSON.encode(try await service.sampleQuery(query))
            var response = HTTPResponse(status: .ok)
            response.headerFields[.contentType] = "application/json; charset=utf-8"
            return (response, HTTPBody(list))
        }
    }

    /// A decoder as the generated code's: dates through the exact date transcoder.
    private static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        let dates = ExactDateTranscoder()
        decoder.dateDecodingStrategy = .custom { decoder in try dates.decode(try decoder.singleValueContainer().decode(String.self)) }
        return decoder
    }

    /// No `Content-Type` (the generated code takes JSON then), or JSON's.
    static func takesJSON(_ contentType: String?) -> Bool {
        guard let contentType else { return true }
        return mediaType(contentType) == "application/json"
    }

    /// No `Accept`, or one that takes JSON.
    static func acceptsJSON(_ accept: String?) -> Bool {
        guard let accept else { return true }
        return accept.split(separator: ",").contains { ["application/json", "application/*", "*/*"].contains(mediaType(String($0))) }
    }

    private static func mediaType(_ value: String) -> String {
        String(value.prefix { $0 != ";" }).trimmingCharacters(in: .whitespaces).lowercased()
    }
}
