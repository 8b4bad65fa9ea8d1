import Foundation
import Hummingbird
import Synchronization

/// How many requests an app may make: `requestsPerSecond` on average, in bursts of up to `burst`.
public struct RateLimit: Sendable, Hashable {
    public var requestsPerSecond: Double
    public var burst: Int

    public init(requestsPerSecond: Double, burst: Int) {
        self.requestsPerSecond = requestsPerSecond
        self.burst = burst
    }

    /// 200 requests a second per app, in bursts of 2,000: far above what an app's screens and syncs need, far below
    /// what would starve the other apps on a 2-core machine.
    public static let standard = RateLimit(requestsPerSecond: 200, burst: 2_000)
}

/// Per-app quotas (a token bucket each): a request over the app's limit is answered 429 with `Retry-After`, and
/// costs the other apps nothing. Requests without an app (registering, claiming a credential) share one bucket.
struct RateLimiter<Context: RequestContext>: RouterMiddleware {
    private final class Buckets: Sendable {
        let state = Mutex<[String: (tokens: Double, at: ContinuousClock.Instant)]>([:])
    }

    let limit: RateLimit
    private let buckets = Buckets()

    init(limit: RateLimit) {
        self.limit = limit
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let key = CallingApp.manifest?.bundleIdentifier ?? ""
        if let wait = admit(key, at: .now) {
            let seconds = max(1, Int(Self.seconds(wait).rounded(.up)))
            var problem = Problem(.tooManyRequests, "too many requests",
                                  detail: "\(key.isEmpty ? "unauthenticated requests" : key) went over \(Self.format(limit.requestsPerSecond)) "
                                      + "requests a second (bursts of \(limit.burst)); retry after \(seconds) s")
            problem.headers[.retryAfter] = String(seconds)
            throw problem
        }
        return try await next(request, context)
    }

    /// Takes one token from `key`'s bucket; nil when there was one, else how long until there is.
    func admit(_ key: String, at now: ContinuousClock.Instant) -> Duration? {
        buckets.state.withLock { state in
            var bucket = state[key] ?? (Double(limit.burst), now)
            let elapsed = Self.seconds(bucket.at.duration(to: now))
            bucket.tokens = min(Double(limit.burst), bucket.tokens + max(0, elapsed) * limit.requestsPerSecond)
            bucket.at = now
            defer { state[key] = bucket }
            guard bucket.tokens >= 1 else { return .seconds((1 - bucket.tokens) / limit.requestsPerSecond) }
            bucket.tokens -= 1
            return nil
        }
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    private static func format(_ value: Double) -> String {
        value.rounded() == value ? String(Int(value)) : String(value)
    }
}
