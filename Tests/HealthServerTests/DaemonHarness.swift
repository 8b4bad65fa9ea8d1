import AsyncHTTPClient
import Foundation
import HealthAPI
import HealthServer
import HTTPTypes
import NIOCore
import NIOHTTP1
import OpenAPIAsyncHTTPClient
import OpenAPIRuntime
import OpenHealthKit
import ServiceLifecycleTestKit
import Synchronization

/// A real daemon on a real Unix socket, in this process, over a new private store; apps reach it with a real HTTP
/// client (AsyncHTTPClient), through the generated API client or as raw requests.
final class DaemonHarness: Sendable {
    let folder: URL
    let store: URL
    let socketPath: String
    /// The loopback TCP port, when the daemon was started with one.
    let tcpPort: Int?
    private let stopping: @Sendable () async -> Void

    init(folder: URL, store: URL, socketPath: String, tcpPort: Int? = nil, stopping: @escaping @Sendable () async -> Void) {
        self.folder = folder
        self.store = store
        self.socketPath = socketPath
        self.tcpPort = tcpPort
        self.stopping = stopping
    }

    /// The code the web Health app's first-run page takes in these daemons (`health serve` prints a random one).
    static let setupCode = "test-setup-code"

    /// Starts a daemon (on a Unix socket, and on a loopback TCP port with `tcp`) and waits until it accepts connections.
    /// With `folder`, serves the store an earlier daemon served there (a restart), on the same socket path.
    static func start(maximumBodyBytes: Int = 8 << 20, rateLimit: RateLimit? = .standard, tcp: Bool = false,
                      folder: URL? = nil, deliveryRetry: DeliveryRetry = DeliveryRetry(),
                      callbackHosts: CallbackHosts = .local, lockAfter: Duration? = nil,
                      sessionIdleTimeout: Duration? = nil, startLocked: Bool = false) async throws -> DaemonHarness {
        let folder = try folder ?? privateFolder()
        let store = folder.appendingPathComponent("store")
        let socketPath = folder.appendingPathComponent("d.sock").path
        var configuration = HealthDaemon.Configuration(storeDirectory: store, socketPath: socketPath, tcpPort: tcp ? 0 : nil,
                                                       maximumBodyBytes: maximumBodyBytes, rateLimit: rateLimit)
        configuration.accessLogInterval = .milliseconds(50)
        configuration.deliveryRetry = deliveryRetry
        // Deliveries to this machine only unless a test says otherwise: a test never reaches out (the API fuzz sets
        // callbacks of its own making).
        configuration.callbackHosts = callbackHosts
        configuration.lockAfter = lockAfter
        configuration.startLocked = startLocked
        configuration.setupCode = Self.setupCode
        if let sessionIdleTimeout { configuration.sessionIdleTimeout = sessionIdleTimeout }
        let daemon = HealthDaemon(configuration: configuration)
        let (listening, continuation) = AsyncStream<HealthDaemon.Endpoint>.makeStream()
        let (triggered, trigger) = AsyncStream<GracefulShutdownTestTrigger>.makeStream()
        let task = Task {
            defer { continuation.finish() }
            try await testGracefulShutdown { shutdown in
                trigger.yield(shutdown)
                trigger.finish()
                try await daemon.run(gracefulShutdownSignals: []) { continuation.yield($0) }
            }
        }
        var shutdown: GracefulShutdownTestTrigger?
        for await value in triggered { shutdown = value }
        var endpoints: [HealthDaemon.Endpoint] = []
        for await endpoint in listening {
            endpoints.append(endpoint)
            if endpoints.count == (tcp ? 2 : 1) { break }
        }
        let tcpPort = endpoints.lazy.compactMap { if case .tcp(_, let port, _) = $0 { port } else { nil } }.first
        if task.isCancelled { _ = try await task.value }
        try await Task.sleep(for: .milliseconds(1))
        guard FileManager.default.fileExists(atPath: socketPath) else {
            _ = try await task.value
            throw CancellationError()
        }
        return DaemonHarness(folder: folder, store: store, socketPath: socketPath, tcpPort: tcpPort) { [shutdown] in
            shutdown?.triggerGracefulShutdown()
            _ = try? await task.value
        }
    }

    /// Stops the daemon as SIGTERM does (a graceful shutdown: requests in flight finish) and removes its folder.
    func stop() async {
        await stopping()
        try? FileManager.default.removeItem(at: folder)
    }

    /// Stops the daemon as SIGTERM does and keeps its folder, for a new daemon to serve it (`start(folder:)`).
    func stopKeepingTheStore() async {
        await stopping()
    }

    /// The person's side of the same store (approving apps, setting permissions), as `health apps` opens it.
    func person() throws -> HealthPerson { try HealthPerson(storeDirectory: store) }

    /// `http+unix://<socket>`: AsyncHTTPClient's URL for the socket.
    var baseURL: String { "http+unix://" + socketPath.replacingOccurrences(of: "/", with: "%2F") }

    /// How long a test's call may take: as long as an app's own `HKHealthStore` waits for a sheet (330 s, beyond the
    /// daemon's 300 s), because a call parked for the person's answer waits that long in use. Found in CI: every suite
    /// runs at once on two cores, and a test that asked, read the sheet and answered it took more than the 30 s these
    /// calls had, so the app's call failed although the person had answered. The calls go through the HTTP client an app's
    /// remote `HKHealthStore` uses (`RemoteBackend.httpClient`: no 90 s read timeout), so they wait as an app's do.
    static let callTimeout: TimeAmount = .seconds(330)

    /// The generated client, calling as the app holding `token` (or as no app).
    func client(token: String? = nil, timeout: TimeAmount = DaemonHarness.callTimeout) -> Client {
        Client(serverURL: URL(string: baseURL)!, configuration: .init(dateTranscoder: ExactDateTranscoder()),
               transport: AsyncHTTPClientTransport(configuration: .init(client: RemoteBackend.httpClient, timeout: timeout)),
               middlewares: token.map { [BearerTokenMiddleware(token: $0)] } ?? [])
    }

    /// One raw request: what any HTTP tool would send.
    func raw(_ method: HTTPMethod, _ path: String, body: String? = nil, token: String? = nil,
             headers: [(String, String)] = [("content-type", "application/json")]) async throws -> RawResponse {
        var request = HTTPClientRequest(url: baseURL + path)
        request.method = method
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let token { request.headers.add(name: "authorization", value: "Bearer \(token)") }
        if let body { request.body = .bytes(ByteBuffer(string: body)) }
        let response = try await RemoteBackend.httpClient.execute(request, timeout: Self.callTimeout)
        let bytes = try await response.body.collect(upTo: 64 << 20)
        return RawResponse(status: Int(response.status.code), headers: response.headers.map { ($0.name.lowercased(), $0.value) },
                           body: String(buffer: bytes))
    }

    /// Registers the app through the API (with `clinical`, its clinical usage description), has the person approve it
    /// and allow it `share` and `read`, and claims its token: what an app and the person do before the app's first call.
    func connect(_ bundleIdentifier: String, name: String? = nil, share: [HKObjectType] = [], read: [HKObjectType] = [],
                 clinical: String? = nil) async throws -> String {
        let client = client()
        let manifest = Components.Schemas.AppManifest(cfBundleIdentifier: bundleIdentifier, cfBundleName: name ?? bundleIdentifier,
                                                      nsHealthShareUsageDescription: "Shows your data.", nsHealthUpdateUsageDescription: "Logs your data.",
                                                      nsHealthClinicalHealthRecordsShareUsageDescription: clinical)
        let registration = try await client.registerApp(body: .json(manifest)).created.body.json
        let person = try person()
        try person.decideRegistration(registration.id, .approved)
        for type in Set(share.map(\.identifier) + read.map(\.identifier)) {
            let objectType = HKObjectType.type(forIdentifier: type)!
            try person.setPermission(app: bundleIdentifier, type: objectType,
                                     share: share.contains { $0.identifier == type } ? true : nil,
                                     read: read.contains { $0.identifier == type } ? true : nil)
        }
        return try await client.claimCredential(path: .init(registrationID: registration.id), body: .json(.init(secret: registration.secret)))
            .ok.body.json.token
    }
}

/// A raw response: status, headers (lowercased names), body text.
struct RawResponse: Sendable {
    let status: Int
    let headers: [(String, String)]
    let body: String

    func header(_ name: String) -> String? { headers.first { $0.0 == name }?.1 }

    /// The body as a JSON object (a problem document, say).
    var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] ?? [:] }
}

extension DaemonHarness {
    /// A new folder (0700) under /tmp, short enough for a Unix socket path inside it.
    static func privateFolder() throws -> URL {
        let folder = URL(fileURLWithPath: "/tmp/ohk-d-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return folder
    }

    /// Runs `body` with a started daemon, and stops it however `body` ends.
    static func with<T: Sendable>(maximumBodyBytes: Int = 8 << 20, rateLimit: RateLimit? = .standard, tcp: Bool = false,
                                  _ body: (DaemonHarness) async throws -> T) async throws -> T {
        let daemon = try await start(maximumBodyBytes: maximumBodyBytes, rateLimit: rateLimit, tcp: tcp)
        do {
            let result = try await body(daemon)
            await daemon.stop()
            return result
        } catch {
            await daemon.stop()
            throw error
        }
    }
}
