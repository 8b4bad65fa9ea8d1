import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import Synchronization

/// An app's callback server on loopback, as an app runs one to be woken by `health serve`: it records each delivery it
/// receives and answers what the test says, possibly after a wait (a callback that hangs).
final class CallbackReceiver: Sendable {
    /// One POST as it arrived.
    struct Received: Sendable {
        let headers: [String: String]
        let body: Data

        /// The body as JSON.
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
        var id: String? { json["id"] as? String }
        var types: [String] { json["types"] as? [String] ?? [] }
        var attempt: Int? { json["attempt"] as? Int }

        /// Whether the signature header is the HMAC-SHA256 of `"<t>.<body>"` under `secret` (64 hex digits).
        func signed(with secret: String) -> Bool {
            guard let header = headers["openhealthkit-signature"],
                  let t = header.firstMatch(of: /t=(\d+)/)?.output.1, let v1 = header.firstMatch(of: /v1=([0-9a-f]{64})/)?.output.1
            else { return false }
            var key = Data()
            var hex = Substring(secret)
            while hex.count >= 2, let byte = UInt8(hex.prefix(2), radix: 16) { key.append(byte); hex = hex.dropFirst(2) }
            let expected = HMAC<SHA256>.authenticationCode(for: Data("\(t).".utf8) + body, using: SymmetricKey(data: key))
            return expected.map { String(format: "%02x", $0) }.joined() == v1
        }
    }

    /// What arrived, and how many requests.
    private final class Log: Sendable {
        let received = Mutex<[Received]>([])
        let count = Atomic<Int>(0)
    }

    let port: Int
    private let log: Log
    private let task: Task<Void, any Error>

    private init(port: Int, log: Log, task: Task<Void, any Error>) {
        self.port = port
        self.log = log
        self.task = task
    }

    /// The callback URL apps register.
    var url: String { "http://127.0.0.1:\(port)/wake" }

    /// Starts listening; `answer` is given the request's number (0 for the first) and the request itself, and returns
    /// the status to answer, after as long as it likes.
    static func start(answer: @escaping @Sendable (Int, Received) async -> HTTPResponse.Status = { _, _ in .ok }) async throws
        -> CallbackReceiver
    {
        let log = Log()
        let router = Router()
        router.post("wake") { request, _ -> Response in
            let bytes = try await request.body.collect(upTo: 1 << 20)
            var headers: [String: String] = [:]
            for field in request.headers { headers[field.name.canonicalName] = field.value }
            let received = Received(headers: headers, body: Data(buffer: bytes))
            log.received.withLock { $0.append(received) }
            let number = log.count.add(1, ordering: .relaxed).oldValue
            return Response(status: await answer(number, received))
        }
        let (ports, listening) = AsyncStream<Int>.makeStream()
        // Stopped by cancellation, which Hummingbird reports as errors: this test server keeps quiet.
        var quiet = Logger(label: "callback-receiver")
        quiet.logLevel = .critical
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                              onServerRunning: { listening.yield($0.localAddress?.port ?? 0) }, logger: quiet)
        let task = Task { try await app.runService(gracefulShutdownSignals: []) }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw CancellationError() }
        return CallbackReceiver(port: port, log: log, task: task)
    }

    /// What arrived so far.
    var deliveries: [Received] { log.received.withLock { $0 } }

    /// What arrived, once `done` says it is enough or `timeout` has passed.
    func deliveries(until done: ([Received]) -> Bool, within timeout: Duration = .seconds(20)) async throws -> [Received] {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let now = deliveries
            if done(now) { return now }
            try await Task.sleep(for: .milliseconds(20))
        }
        return deliveries
    }

    func stop() async {
        task.cancel()
        _ = try? await task.value
    }
}
