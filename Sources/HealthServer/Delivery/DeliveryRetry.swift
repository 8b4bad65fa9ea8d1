/// How `health serve` retries a background delivery its callback did not take: the wait doubles after each failed
/// attempt, from ``firstDelay`` up to ``longestDelay`` (each wait drawn within 10 % of that, so apps that failed
/// together are not retried together), until ``maximumAttempts`` have failed; then the delivery is marked failed and
/// the person sees why (`health deliveries --state failed`). With the defaults the last attempt is about nine hours
/// after the first.
///
/// ```swift
/// var configuration = HealthDaemon.Configuration(storeDirectory: folder)
/// configuration.deliveryRetry = DeliveryRetry(firstDelay: .milliseconds(100), maximumAttempts: 5)
/// ```
public struct DeliveryRetry: Sendable, Hashable {
    /// The wait after the first failed attempt.
    public var firstDelay: Duration
    /// The longest wait between two attempts.
    public var longestDelay: Duration
    /// Attempts made before the delivery is given up.
    public var maximumAttempts: Int
    /// How long one attempt may take before it counts as failed.
    public var timeout: Duration

    public init(firstDelay: Duration = .seconds(1), longestDelay: Duration = .seconds(3_600), maximumAttempts: Int = 20,
                timeout: Duration = .seconds(10)) {
        self.firstDelay = firstDelay
        self.longestDelay = longestDelay
        self.maximumAttempts = max(1, maximumAttempts)
        self.timeout = timeout
    }

    /// The wait, in seconds, after attempt number `attempt` (1 for the first) failed.
    func delay(afterAttempt attempt: Int) -> Double {
        let first = Self.seconds(firstDelay), longest = Self.seconds(longestDelay)
        let doubled = first * Double(1 << min(max(attempt - 1, 0), 40))
        return min(doubled, longest) * Double.random(in: 0.9...1.1)
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
