import ArgumentParser
import AsyncHTTPClient
import Foundation
import HealthServer
import HealthStore
import NIOCore

/// The person's side of `health lock` and `health unlock`: the passphrase (or key file) asked for as every command asks
/// for it, sent to the daemon serving the store over its socket (``HealthDaemon``'s `/person` routes).
struct DaemonLockClient {
    let socket: String

    /// The store and the daemon's socket, as `health lock` and `health unlock` take them.
    struct Options: ParsableArguments {
        @OptionGroup var store: StoreOptions
        @Option(help: "The daemon's Unix socket (default: $XDG_RUNTIME_DIR/openhealthkit/healthd.sock).")
        var socket: String?

        /// Asks for the passphrase to `action` the store (once a daemon is there to hear it) and posts it to `path`.
        func post(_ path: String, asking action: String) async throws -> [String: Any] {
            let client = DaemonLockClient(socket: socket ?? HealthDaemon.Configuration.defaultSocketPath())
            try client.checkSocket()
            return try await client.post(path, DaemonLockClient.proof(for: store.directory, action))
        }
    }

    /// The passphrase or key file (`PassphrasePrompt.current`), as the daemon's routes take it.
    static func proof(for directory: URL, _ action: String) throws -> [String: String] {
        switch try PassphrasePrompt.current("Passphrase to \(action) the store in \(directory.path): ",
                                            unavailable: "the passphrase is needed: run in a terminal to type it, or set \(StoreEncryption.passphraseVariable)") {
        case .passphrase(let passphrase): ["passphrase": passphrase]
        case .keyFile(let url): ["keyFile": url.path]
        }
    }

    private var unanswered: CommandFailure {
        CommandFailure("no daemon answers at \(socket): start one with `health serve` (or give its --socket)")
    }

    /// Fails at once when no socket is there (before the passphrase is asked for).
    func checkSocket() throws {
        var status = stat()
        guard stat(socket, &status) == 0, status.st_mode & S_IFMT == S_IFSOCK else { throw unanswered }
    }

    /// POSTs `body` to `path` and returns the JSON answer, or fails with the daemon's own words.
    func post(_ path: String, _ body: [String: String]) async throws -> [String: Any] {
        let address = "http+unix://" + (socket.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? socket)
        var request = HTTPClientRequest(url: address + path)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: body)))
        try checkSocket()
        // A client of its own, which does not retry: a socket nobody listens on is an error at once.
        let client = HTTPClient(eventLoopGroupProvider: .singleton,
                                configuration: .init(timeout: .init(connect: .seconds(2), read: .seconds(600))))
        let answer: (response: HTTPClientResponse, bytes: ByteBuffer)?
        do {
            let response = try await client.execute(request, timeout: .seconds(600))
            answer = (response, try await response.body.collect(upTo: 1 << 20))
        } catch {
            answer = nil
        }
        try? await client.shutdown()
        guard let (response, bytes) = answer else { throw unanswered }
        let object = (try? JSONSerialization.jsonObject(with: Data(buffer: bytes))) as? [String: Any] ?? [:]
        guard response.status == .ok else {
            throw CommandFailure((object["detail"] as? String) ?? (object["title"] as? String) ?? "the daemon answered \(response.status)")
        }
        return object
    }
}
