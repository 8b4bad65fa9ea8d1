package import Foundation
import HTTPTypes
package import OpenAPIRuntime

/// The app's credential on every request the generated client sends (RFC 6750 §2.1: `Authorization: Bearer …`).
package struct BearerTokenMiddleware: ClientMiddleware {
    package let token: String

    package init(token: String) {
        self.token = token
    }

    package func intercept(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
                           next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        request.headerFields[.authorization] = "Bearer \(token)"
        return try await next(request, body, baseURL)
    }
}
