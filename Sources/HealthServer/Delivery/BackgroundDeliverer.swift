import AsyncHTTPClient
import Crypto
import Foundation
import HealthAPI
import HealthStore
import HTTPTypes
import Logging
import NIOCore
import NIOHTTP1
import ServiceLifecycle

/// `health serve`'s background deliveries: after each change to the store (and when a held-back change or a retry
/// falls due), queues what each app's enabled types owe it (``BackgroundDeliveryQueue``) and POSTs each app's oldest
/// pending delivery to its callback URL, signed with the app's callback secret. A delivery the callback does not
/// answer 2xx is retried as ``DeliveryRetry`` says; one whose app the person revoked is cancelled, not sent. Every
/// attempt is written to the store before it is made, so a daemon killed mid-delivery makes it again when it restarts.
struct BackgroundDeliverer: Service {
    let queue: BackgroundDeliveryQueue
    let registrations: AppRegistrations
    let retry: DeliveryRetry
    let hosts: CallbackHosts
    let wakeup: DeliveryWakeup
    let logger: Logger

    /// The headers of a delivery (besides the content type).
    static let deliveryHeader = "OpenHealthKit-Delivery"
    static let signatureHeader = "OpenHealthKit-Signature"

    func run() async throws {
        var configuration = HTTPClient.Configuration(redirectConfiguration: .disallow)
        configuration.timeout = .init(connect: .seconds(5))
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        // Subscribed before the first look: a change in between wakes the next one.
        let changes = queue.samples.changes.subscribe()
        wakeup.poke()
        await withTaskGroup(of: Void.self) { group in
            group.addTask { [wakeup] in
                for await _ in changes { wakeup.poke() }
            }
            group.addTask { await self.deliver(with: client) }
            await group.next()   // deliveries stop when the daemon does
            group.cancelAll()
        }
        try? await client.shutdown()
    }

    /// One look at the queue per wake, until the daemon stops; a timer wakes the next look when something falls due.
    private func deliver(with client: HTTPClient) async {
        var timer: Task<Void, Never>?
        for await _ in wakeup.wakes.cancelOnGracefulShutdown() {
            timer?.cancel()
            guard let next = await look(with: client) else { continue }
            let wait = max(0, next.timeIntervalSinceNow)
            timer = Task { [wakeup] in
                guard (try? await Task.sleep(for: .milliseconds(Int64(wait * 1_000) + 1))) != nil else { return }
                wakeup.poke()
            }
        }
        timer?.cancel()
    }

    /// Queues what is due, sends what is due (apps side by side, each app's deliveries in order), and says when to look
    /// again.
    private func look(with client: HTTPClient) async -> Date? {
        do {
            let heldBack = try queue.queueDue()
            let due = try queue.due()
            await withTaskGroup(of: Void.self) { group in
                for (delivery, callback) in due {
                    group.addTask { await self.attempt(delivery, to: callback, with: client) }
                }
            }
            return [heldBack, try queue.nextAttempt()].compactMap { $0 }.min()
        } catch {
            // A locked store is no failure: deliveries wait for it to be unlocked.
            if !queue.samples.database.isLocked {
                logger.error("background delivery: the queue could not be read or written", metadata: ["error": "\(error)"])
            }
            return Date().addingTimeInterval(5)
        }
    }

    private func attempt(_ delivery: BackgroundDeliveryQueue.Delivery, to callback: BackgroundDeliveryQueue.Callback,
                         with client: HTTPClient) async {
        do {
            guard try registrations.isApproved(delivery.app) else {
                try queue.cancelPending(app: delivery.app, reason: "the person revoked the app")
                return
            }
            let attempt = delivery.attempts + 1
            let last = attempt >= retry.maximumAttempts
            try queue.startAttempt(delivery.id, retryAt: Date().addingTimeInterval(retry.delay(afterAttempt: attempt)))
            let failure: String
            do {
                // A URL set before the daemon was restarted with `--callbacks local`.
                if hosts == .local, !CallbackURL.isLoopback(callback.url.host ?? "") {
                    throw Refused(reason: "this daemon delivers only to this machine (--callbacks local)")
                }
                let response = try await client.execute(try Self.request(delivery, attempt: attempt, to: callback),
                                                        timeout: .nanoseconds(Int64(DeliveryRetry.seconds(retry.timeout) * 1e9)))
                _ = try? await response.body.collect(upTo: 1 << 16)
                if (200..<300).contains(response.status.code) {
                    try queue.delivered(delivery.id)
                    logger.debug("delivered", metadata: ["app": "\(delivery.app)", "delivery": "\(delivery.id)"])
                    return
                }
                failure = "the callback answered \(response.status.code) \(response.status.reasonPhrase)"
            } catch let refused as Refused {
                failure = refused.reason
            } catch {
                failure = Task.isCancelled ? "the daemon stopped during the attempt" : "the callback could not be reached: \(error)"
            }
            try queue.attemptFailed(delivery.id, reason: "attempt \(attempt): \(failure)", finally: last)
            logger.notice("background delivery failed", metadata: ["app": "\(delivery.app)", "delivery": "\(delivery.id)",
                                                                    "attempt": "\(attempt)", "reason": "\(failure)"])
        } catch {
            logger.error("background delivery: the queue could not be written", metadata: ["error": "\(error)"])
        }
    }

    private struct Refused: Error { let reason: String }

    /// The POST of `delivery`: its notice as JSON, its id, and the signature `t=<unix seconds>,v1=<hex HMAC-SHA256 of
    /// "<t>.<body>">` under the app's callback secret.
    static func request(_ delivery: BackgroundDeliveryQueue.Delivery, attempt: Int, to callback: BackgroundDeliveryQueue.Callback,
                        now: Date = Date()) throws -> HTTPClientRequest {
        let notice = Components.Schemas.BackgroundDeliveryNotice(id: delivery.id, types: delivery.types, queuedAt: delivery.createdAt,
                                                                  attempt: attempt)
        let body = try ExactDateTranscoder.jsonEncoder().encode(notice)
        let time = Int(now.timeIntervalSince1970)
        var request = HTTPClientRequest(url: callback.url.absoluteString)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "User-Agent", value: "healthd")
        request.headers.add(name: deliveryHeader, value: delivery.id)
        request.headers.add(name: signatureHeader, value: "t=\(time),v1=\(signature(body, time: time, secret: callback.secret))")
        request.body = .bytes(ByteBuffer(bytes: body))
        return request
    }

    /// The hex HMAC-SHA256 of `"<time>.<body>"` under `secret`: what an app computes to check a delivery.
    static func signature(_ body: Data, time: Int, secret: Data) -> String {
        var signed = Data("\(time).".utf8)
        signed.append(body)
        return HMAC<SHA256>.authenticationCode(for: signed, using: SymmetricKey(data: secret)).map { String(format: "%02x", $0) }.joined()
    }
}
