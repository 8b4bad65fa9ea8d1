import ArgumentParser
import Foundation
import HealthServer
import Logging
import Synchronization

/// `health serve`: the daemon that owns the store; apps reach it only through its API, with the person's consent.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the store: the Health app in your browser, and apps over HTTP (a Unix socket and TCP on loopback), until SIGTERM or Ctrl-C.",
        discussion: """
            Open the address it prints for the Health app: on the first run it asks you to choose your passphrase (an \
            encrypted store's is its own). Apps register with their manifest (POST /v1/registrations), you approve them \
            (in the Health app's Sources, or health apps approve), and each app claims its bearer token once. The API \
            document is served at /openapi.json. The store folder must be private to the user running the daemon; one \
            daemon serves a store at a time. The Health app and the person's routes are served on loopback, or over \
            HTTPS (--tls-certificate) on other addresses, never in clear across a network.
            """)

    @OptionGroup var store: StoreOptions
    @Option(help: "The Unix socket to listen on (default: $XDG_RUNTIME_DIR/openhealthkit/healthd.sock).")
    var socket: String?
    @Option(help: "The TCP port of the Health app and the API (0: any free port).")
    var port = 8765
    @Flag(name: .customLong("no-tcp"), help: "Listen on the Unix socket only (no Health app in the browser).")
    var noTCP = false
    @Option(help: "The address the TCP port binds.")
    var host = "127.0.0.1"
    @Option(name: .customLong("tls-certificate"), help: "A PEM certificate (chain): the TCP port serves HTTPS with it and --tls-key.")
    var tlsCertificate: String?
    @Option(name: .customLong("tls-key"), help: "The PEM private key of --tls-certificate.")
    var tlsKey: String?
    @Option(name: .customLong("max-body"), help: "The largest request body accepted, in bytes.")
    var maximumBodyBytes = 8 << 20
    @Option(name: .customLong("rate-limit"), help: "Requests a second each app may make on average, in bursts of ten times as many (0: no limit).")
    var requestsPerSecond: Double = RateLimit.standard.requestsPerSecond
    @Option(help: "Where apps' background deliveries may go: any (https anywhere, http on this machine) or local (this machine only).")
    var callbacks = "any"
    @Option(name: .customLong("lock-after"), help: "Lock an encrypted store this many minutes after it was last unlocked (health unlock); 0: only when told (health lock).")
    var lockAfterMinutes: Double = 0
    @Flag(help: "Start an encrypted store locked, without asking for its passphrase: apps are refused until you unlock it (health unlock, or sign in to the Health app).")
    var locked = false
    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical; the log goes to standard error.")
    var logLevel = "notice"

    func validate() throws {
        if !(0...65_535).contains(port) { throw ValidationError("--port \(port) is not a TCP port (0 to 65535)") }
        if (tlsCertificate == nil) != (tlsKey == nil) { throw ValidationError("TLS needs both --tls-certificate and --tls-key") }
        if tlsCertificate != nil, noTCP { throw ValidationError("TLS is for the TCP listener, which --no-tcp turns off") }
        guard maximumBodyBytes >= 1024 else { throw ValidationError("--max-body \(maximumBodyBytes) is under 1024 bytes") }
        guard requestsPerSecond >= 0, requestsPerSecond.isFinite else { throw ValidationError("--rate-limit \(requestsPerSecond) is not a rate") }
        guard CallbackHosts(rawValue: callbacks) != nil else { throw ValidationError("--callbacks \(callbacks): use any or local") }
        guard lockAfterMinutes >= 0, lockAfterMinutes.isFinite else { throw ValidationError("--lock-after \(lockAfterMinutes) is not a number of minutes") }
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("--log-level \(logLevel) is not a level") }
    }

    var rateLimit: RateLimit? {
        requestsPerSecond == 0 ? nil : RateLimit(requestsPerSecond: requestsPerSecond, burst: max(1, Int(requestsPerSecond * 10)))
    }

    func run() async throws {
        umask(0o077)
        LoggingSystem.bootstrap(StreamLogHandler.standardError)
        var logger = Logger(label: "healthd")
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .notice
        if !locked { try store.unlockIfEncrypted(otherwise: "start it locked (--locked) and unlock it later") }
        var configuration = HealthDaemon.Configuration(storeDirectory: store.directory, socketPath: socket, tcpPort: noTCP ? nil : port, tcpHost: host,
                                                       maximumBodyBytes: maximumBodyBytes, rateLimit: rateLimit)
        if let tlsCertificate, let tlsKey { configuration.tls = (tlsCertificate, tlsKey) }
        configuration.callbackHosts = CallbackHosts(rawValue: callbacks) ?? .any
        configuration.sampleExport = ImportCommand.bundledSample
        configuration.startLocked = locked
        if lockAfterMinutes > 0 { configuration.lockAfter = .milliseconds(Int64(lockAfterMinutes * 60_000)) }
        let daemon = HealthDaemon(configuration: configuration, logger: logger)
        let announced = Mutex(false)
        let folder = store.directory.standardizedFileURL.path
        do {
            try await daemon.run { endpoint in
                // Under the lock, so the store's line comes first whichever listener is ready first.
                announced.withLock { done in
                    if !done {
                        Self.say("Serving the store in \(folder)")
                        if locked { Self.say("The store is locked: unlock it with health unlock, or by signing in to the Health app.") }
                    }
                    done = true
                    Self.say("Listening on \(endpoint)")
                    if let address = daemon.healthAppAddress(endpoint) { Self.say("Health app: \(address)") }
                }
            }
        } catch let error as DaemonError {
            throw CommandFailure(error.description)
        } catch where "\(error)".contains("Address already in use") {
            throw CommandFailure("port \(port) on \(host) is in use (another health serve?): choose another with --port, or --port 0 for any free one")
        }
        Self.say("Stopped; the store is closed.")
    }

    /// A line on standard output at once (unbuffered), so whoever started the daemon sees where it listens. A reader
    /// that went away (a closed pipe) costs the line, never the daemon: it still closes the store.
    private static func say(_ line: String) {
        try? FileHandle.standardOutput.write(contentsOf: Data((line + "\n").utf8))
    }
}
