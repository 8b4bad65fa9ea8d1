public import Foundation
import HealthAPI
import HealthModel
import HealthStore
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
public import Logging
import NIOCore
import OpenAPIHummingbird
import OpenAPIRuntime
import OpenHealthKit
import ServiceLifecycle
public import UnixSignals

/// The daemon that owns one person's store and serves it to apps (`health serve`): apps reach the data only through
/// its authenticated API, never the store's files.
///
/// ```swift
/// let daemon = HealthDaemon(configuration: .init(storeDirectory: URL(fileURLWithPath: "health-store")))
/// try await daemon.run { endpoint in print("listening on \(endpoint)") }   // until SIGTERM or SIGINT
/// ```
///
/// Before it listens it makes sure the store is its alone: the folder private to the user (created 0700, files 0600;
/// a folder others can read or write is refused) and no other daemon serving it (a lock naming the process).
public struct HealthDaemon: Sendable {
    /// Where the store is, where the daemon listens, and its limits.
    public struct Configuration: Sendable {
        public var storeDirectory: URL
        /// The Unix domain socket apps connect to (``defaultSocketPath(environment:)`` unless given).
        public var socketPath: String
        /// A TCP port to listen on as well, on ``tcpHost``; 0 takes any free port. nil: the socket only.
        public var tcpPort: Int?
        /// The address the TCP listener binds: loopback unless the person says otherwise.
        public var tcpHost: String
        /// The largest request body accepted; larger ones are answered 413.
        public var maximumBodyBytes: Int
        /// Each app's request quota (429 with `Retry-After` beyond it); nil: none.
        public var rateLimit: RateLimit?
        /// How often the access log's buffered entries are written to the store.
        public var accessLogInterval: Duration = .seconds(1)
        /// How background deliveries to apps' callback URLs are retried.
        public var deliveryRetry = DeliveryRetry()
        /// Where apps' callback URLs may point.
        public var callbackHosts = CallbackHosts.any
        /// PEM files of the certificate (chain) and private key the TCP listener serves HTTPS with; nil: plain HTTP.
        /// The Unix socket, reachable only on this machine by the daemon's user, stays plain.
        public var tls: (certificatePath: String, keyPath: String)?
        /// An encrypted store locks itself this long after the person last unlocked it (or the daemon started); nil: it
        /// stays unlocked until the person locks it.
        public var lockAfter: Duration?
        /// Opens an encrypted store locked, without its key, as a device starts before its first unlock: nothing can be
        /// read or written, and apps' requests are answered `errorDatabaseInaccessible` (their tokens cannot even be
        /// checked), until the person unlocks it (`health unlock`, or signing in to the web Health app). For a daemon
        /// started with no secret at hand, at boot. A plain store refuses to start so.
        public var startLocked = false
        /// The code the web Health app's first-run page needs to set the person's passphrase: only whoever started the
        /// daemon sees it, in the address ``HealthDaemon/healthAppAddress(_:)`` gives.
        public var setupCode: String = PersonSessions.randomToken()
        /// The web Health app's sessions: how long one lasts without a request, and at most.
        public var sessionIdleTimeout: Duration = .seconds(30 * 60)
        public var sessionLifetime: Duration = .seconds(12 * 3600)
        /// A small Apple Health export the web app offers to import into an empty store (`health` bundles one).
        public var sampleExport: URL?

        public init(storeDirectory: URL, socketPath: String? = nil, tcpPort: Int? = nil, tcpHost: String = "127.0.0.1",
                    maximumBodyBytes: Int = 8 << 20, rateLimit: RateLimit? = .standard) {
            self.storeDirectory = storeDirectory
            self.socketPath = socketPath ?? Self.defaultSocketPath()
            self.tcpPort = tcpPort
            self.tcpHost = tcpHost
            self.maximumBodyBytes = maximumBodyBytes
            self.rateLimit = rateLimit
        }

        /// `$XDG_RUNTIME_DIR/openhealthkit/healthd.sock`, or `/tmp/openhealthkit-<uid>/healthd.sock` without one.
        public static func defaultSocketPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
            let base = environment["XDG_RUNTIME_DIR"].flatMap { $0.isEmpty ? nil : $0 + "/openhealthkit" } ?? "/tmp/openhealthkit-\(geteuid())"
            return base + "/healthd.sock"
        }
    }

    /// Where the daemon listens, as it tells apps and the person.
    public enum Endpoint: Sendable, Hashable, CustomStringConvertible {
        case unixSocket(path: String)
        case tcp(host: String, port: Int, secure: Bool)

        public var description: String {
            switch self {
            case .unixSocket(let path): "unix:\(path)"
            case .tcp(let host, let port, let secure): "\(secure ? "https" : "http")://\(host.contains(":") ? "[\(host)]" : host):\(port)"
            }
        }
    }

    public let configuration: Configuration
    public let logger: Logger

    public init(configuration: Configuration, logger: Logger = Logger(label: "healthd")) {
        self.configuration = configuration
        self.logger = logger
    }

    /// Serves until one of `gracefulShutdownSignals` arrives or the task is cancelled: then it stops accepting,
    /// finishes the requests in flight (every write acknowledged is in the store), closes the store and removes its
    /// socket. `onListening` hears each endpoint once it accepts connections.
    public func run(gracefulShutdownSignals: [UnixSignal] = [.sigterm, .sigint],
                    onListening: @escaping @Sendable (Endpoint) async -> Void = { _ in }) async throws {
        let directory = configuration.storeDirectory.standardizedFileURL
        try StoreFolder.prepare(directory)
        let lock = try StoreLock(directory)
        let database = configuration.startLocked ? try HealthDatabase(lockedStoreIn: directory) : try HealthDatabase(directory: directory)
        try SocketPath.prepare(configuration.socketPath)
        defer { unlink(configuration.socketPath) }

        // First in the group, so it stops last: the entries of the final requests are written.
        let recorder = AccessRecorder(log: AccessLog(database: database), interval: configuration.accessLogInterval, logger: logger)
        let deliveries = DeliveryWakeup()
        let locking = StoreLocking(database: database, registrations: AppRegistrations(database: database),
                                   idleTimeout: StoreEncryption.isEncrypted(directory) ? configuration.lockAfter : nil, logger: logger)
        let (router, api) = Self.router(database: database, recorder: recorder, deliveries: deliveries, locking: locking,
                                        configuration: configuration, logger: logger)
        let personRouter = Router(context: BasicRequestContext.self)
        personRouter.add(middleware: ProblemMiddleware(logger: logger))
        LockRoutes.add(to: personRouter, locking: locking, api: api)
        let sessions = PersonSessions(idleTimeout: configuration.sessionIdleTimeout, lifetime: configuration.sessionLifetime)
        let imports = StoreImport(logger: logger)
        func webApp(secure: Bool) -> HealthWebApp {
            HealthWebApp(person: HealthPerson(database: database), locking: locking, sessions: sessions,
                         registrations: AppRegistrations(database: database), replay: { try await api.replay($0) },
                         secureCookies: secure, setupCode: configuration.setupCode, imports: imports,
                         sampleExport: configuration.sampleExport, logger: logger)
        }
        // Writes kept while the store was locked and not all replayed (the daemon stopped meanwhile) are replayed now.
        // (A store started locked replays them at its first unlock.)
        if !locking.journal.isEmpty, !database.isLocked {
            do {
                let replayed = try await locking.replay(apply: api.replay)
                logger.info("writes kept while locked replayed", metadata: ["applied": "\(replayed.applied)", "refused": "\(replayed.refused)"])
            } catch {
                logger.error("writes kept while locked could not all be made; they stay kept until the next unlock", metadata: ["error": "\(error)"])
                locking.replayPending()
            }
        }
        let deliverer = BackgroundDeliverer(queue: BackgroundDeliveryQueue(samples: SampleStore(database: database)),
                                            registrations: AppRegistrations(database: database), retry: configuration.deliveryRetry,
                                            hosts: configuration.callbackHosts, wakeup: deliveries, logger: logger)
        var services: [any Service] = [
            recorder,
            locking,
            deliverer,
            // The socket reaches only the daemon's user: the API and the person's lock routes (the CLI's), no web pages.
            Application(responder: PathDispatch(api: router.buildResponder(), person: personRouter.buildResponder(), web: nil),
                        configuration: .init(address: .unixDomainSocket(path: configuration.socketPath), serverName: "healthd"),
                        onServerRunning: { [configuration] _ in
                            chmod(configuration.socketPath, 0o600)
                            await onListening(.unixSocket(path: configuration.socketPath))
                        }, logger: logger),
        ]
        var warmUp: Task<Void, Never>?
        if let port = configuration.tcpPort {
            let server: HTTPServerBuilder = try configuration.tls.map { try .tls(.http1(), tlsConfiguration: Self.tlsConfiguration($0)) } ?? .http1()
            let secure = configuration.tls != nil
            let personal = PathDispatch.carriesPersonRoutes(host: configuration.tcpHost, secure: secure)
            if !personal {
                logger.notice("plain HTTP on \(configuration.tcpHost) would carry the person's passphrase in clear: the web Health app and the person's routes are served on loopback or over HTTPS only")
            }
            let web = personal ? webApp(secure: secure) : nil
            let dispatch = PathDispatch(api: router.buildResponder(), person: personal ? personRouter.buildResponder() : nil,
                                        web: web?.router().buildResponder())
            if let web {
                // The charts' days of what the store holds, computed in the background once (kept, they are only read). A
                // daemon started locked has nothing to read yet: it computes them once the person's first unlock (the web
                // sign-in, or `health unlock`) has opened the store.
                warmUp = Task.detached(priority: .background) { [database] in
                    while database.isLocked, !Task.isCancelled { try? await Task.sleep(for: .milliseconds(250)) }
                    guard !Task.isCancelled else { return }
                    await web.warmUpCharts()
                }
            }
            services.append(Application(
                responder: dispatch, server: server, configuration: .init(address: .hostname(configuration.tcpHost, port: port), serverName: "healthd"),
                onServerRunning: { [configuration] channel in
                    await onListening(.tcp(host: configuration.tcpHost, port: channel.localAddress?.port ?? port, secure: secure))
                }, logger: logger))
        }
        defer { warmUp?.cancel() }
        // Last, so the first to hear a shutdown: parked sheets close before the listeners wait for them.
        services.append(DaemonStopping.Notice(directory: directory))
        let group = ServiceGroup(configuration: .init(services: services, gracefulShutdownSignals: gracefulShutdownSignals, logger: logger))
        defer { DaemonStopping.end(directory) }
        try await group.run()
        // The store closes only once the background computation of chart days has stopped (it stops between types).
        warmUp?.cancel()
        await warmUp?.value
        withExtendedLifetime((lock, database)) {}
    }

    /// The address of the web Health app on a TCP endpoint the daemon listens on (nil for the socket, and for plain HTTP
    /// away from loopback, where it is not served). While the store has no passphrase yet it is the first-run page with
    /// its code.
    public func healthAppAddress(_ endpoint: Endpoint) -> String? {
        guard case .tcp(let host, _, let secure) = endpoint, PathDispatch.carriesPersonRoutes(host: host, secure: secure) else { return nil }
        let base = endpoint.description
        return PersonPassphrase.isSet(configuration.storeDirectory.standardizedFileURL) ? base + "/" : base + "/setup?code=" + configuration.setupCode
    }

    /// The server side of TLS from PEM files, or a clear error naming the file that would not load.
    static func tlsConfiguration(_ files: (certificatePath: String, keyPath: String)) throws -> TLSConfiguration {
        let chain: [NIOSSLCertificate], key: NIOSSLPrivateKey
        do { chain = try NIOSSLCertificate.fromPEMFile(files.certificatePath) } catch {
            throw DaemonError.cannotPrepare(path: files.certificatePath, reason: "not a PEM certificate the daemon can read (\(error))")
        }
        do { key = try NIOSSLPrivateKey(file: files.keyPath, format: .pem) } catch {
            throw DaemonError.cannotPrepare(path: files.keyPath, reason: "not a PEM private key the daemon can read (\(error))")
        }
        guard !chain.isEmpty else { throw DaemonError.cannotPrepare(path: files.certificatePath, reason: "it holds no certificate") }
        return .makeServerConfiguration(certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
    }

    /// The routes: the API document, and the API behind bearer authentication, quotas, size limits and problem answers.
    static func router(database: HealthDatabase, recorder: AccessRecorder, deliveries: DeliveryWakeup, locking: StoreLocking,
                       configuration: Configuration, logger: Logger) -> (Router<BasicRequestContext>, HealthAPIService) {
        let registrations = AppRegistrations(database: database)
        let router = Router(context: BasicRequestContext.self)
        let document = APIDocument()
        router.add(middleware: ProblemMiddleware(logger: logger))
        router.add(middleware: AllowedMethods(document: document))
        router.add(middleware: BearerAuthentication(locking: locking, publicPrefixes: ["/openapi.json", "/v1/registrations"]))
        if let limit = configuration.rateLimit { router.add(middleware: RateLimiter(limit: limit)) }
        router.add(middleware: RequestBodyMiddleware(maximumBytes: configuration.maximumBodyBytes, limits: SchemaLimits(document: document),
                                                     nulls: NullValues(document: document)))
        router.get("openapi.json") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json"],
                     body: .init(byteBuffer: ByteBuffer(string: OpenAPIDocument.json + "\n")))
        }
        let api = HealthAPIService(registrations: registrations, stores: AppStores(database: database), recorder: recorder,
                                   deliveries: deliveries, callbackHosts: configuration.callbackHosts, locking: locking)
        // A fixed, valid URL: the API is served from the root.
        try! api.registerHandlers(on: HandAnsweredRoutes(base: router, service: api), serverURL: URL(string: "/")!,
                                  configuration: .init(dateTranscoder: ExactDateTranscoder(), jsonEncodingOptions: [.sortedKeys, .withoutEscapingSlashes]))
        return (router, api)
    }
}
