import HealthModel

/// The app a request comes from, as its bearer token proved: set by ``BearerAuthentication`` for the request's task,
/// read by the API handlers. An app only ever acts as this identity, whatever its request says.
enum CallingApp {
    @TaskLocal static var manifest: AppManifest?
    /// The bearer token it presented: a long-running answer (a stream) checks it again as it goes, so a revocation
    /// ends the stream as it refuses the next request.
    @TaskLocal static var token: String?

    /// The authenticated app; a handler reached without one is a routing mistake, answered 401 all the same.
    static func required() throws -> AppManifest {
        guard let manifest else { throw Problem.unauthorized(tokenPresented: false) }
        return manifest
    }
}
