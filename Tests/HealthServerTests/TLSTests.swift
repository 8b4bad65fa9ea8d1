import AsyncHTTPClient
import Foundation
import HealthServer
import NIOCore
import NIOSSL
import ServiceLifecycleTestKit
import Testing

/// HTTPS on the TCP listener when the person gives a certificate and key (`--tls-certificate`, `--tls-key`).
@Suite("The daemon: TLS")
struct TLSTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../Fixtures/tls").standardizedFileURL

    @Test func theTCPListenerServesHTTPSWithTheGivenCertificate() async throws {
        let folder = try DaemonHarness.privateFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var configuration = HealthDaemon.Configuration(storeDirectory: folder.appendingPathComponent("store"), socketPath: folder.path + "/d.sock",
                                                       tcpPort: 0)
        configuration.tls = (Self.fixtures.appendingPathComponent("localhost.cert.pem").path, Self.fixtures.appendingPathComponent("localhost.key.pem").path)
        let (endpoints, continuation) = AsyncStream<HealthDaemon.Endpoint>.makeStream()
        let daemon = HealthDaemon(configuration: configuration)
        try await testGracefulShutdown { shutdown in
            async let running: Void = daemon.run(gracefulShutdownSignals: []) { continuation.yield($0) }
            try await Self.checkHTTPS(endpoints)   // a failure cancels the daemon as it leaves this scope
            shutdown.triggerGracefulShutdown()
            try await running
        }
    }

    private static func checkHTTPS(_ endpoints: AsyncStream<HealthDaemon.Endpoint>) async throws {
        var port = 0
        for await endpoint in endpoints {
            if case .tcp(let host, let tcpPort, let secure) = endpoint {
                #expect(host == "127.0.0.1" && secure && endpoint.description == "https://127.0.0.1:\(tcpPort)")
                port = tcpPort
                break
            }
        }
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(Self.fixtures.appendingPathComponent("localhost.cert.pem").path))
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(tlsConfiguration: tls))
        let response = try await client.execute(HTTPClientRequest(url: "https://localhost:\(port)/openapi.json"), timeout: .seconds(10))
        let body = try await response.body.collect(upTo: 1 << 20)
        #expect(response.status == .ok && String(buffer: body).contains("\"openapi\": \"3.1.0\""))
        // A client that does not trust the certificate gets no answer (AsyncHTTPClient retries the handshake until
        // its deadline, hence a short one).
        let untrusting = HTTPClient(eventLoopGroupProvider: .singleton)
        await #expect(throws: (any Error).self) {
            _ = try await untrusting.execute(HTTPClientRequest(url: "https://localhost:\(port)/openapi.json"), timeout: .seconds(2))
        }
        try await client.shutdown()
        try await untrusting.shutdown()
    }

    @Test func aKeyThatIsNotAKeyIsAClearError() async throws {
        let folder = try DaemonHarness.privateFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var configuration = HealthDaemon.Configuration(storeDirectory: folder.appendingPathComponent("store"), socketPath: folder.path + "/d.sock",
                                                       tcpPort: 0)
        let certificate = Self.fixtures.appendingPathComponent("localhost.cert.pem").path
        configuration.tls = (certificate, certificate)
        await #expect {
            try await HealthDaemon(configuration: configuration).run(gracefulShutdownSignals: [])
        } throws: { error in
            guard case DaemonError.cannotPrepare(let path, let reason)? = error as? DaemonError else { return false }
            return path == certificate && reason.hasPrefix("not a PEM private key the daemon can read")
        }
    }
}
