import Foundation
import HealthServer
import OpenHealthKit
import Testing

/// Per-app request quotas: beyond its own, an app is answered 429 with Retry-After; the other apps are not slowed.
@Suite("The daemon: quotas")
struct QuotaTests {
    @Test func anAppOverItsQuotaIs429WithRetryAfterAndOthersGoOn() async throws {
        // One request per 1,000 s after the burst: however slow the machine, the bucket does not refill during the test.
        try await DaemonHarness.with(rateLimit: RateLimit(requestsPerSecond: 0.001, burst: 3)) { daemon in
            let busy = try await daemon.connect("com.example.busy", share: [HKQuantityType(.stepCount)])
            let body = #"{"types":["HKQuantityTypeIdentifierStepCount"]}"#
            var statuses: [Int] = []
            for _ in 0..<4 { statuses.append(try await daemon.raw(.POST, "/v1/authorization/status", body: body, token: busy).status) }
            #expect(statuses == [200, 200, 200, 429])
            let refused = try await daemon.raw(.POST, "/v1/authorization/status", body: body, token: busy)
            // A token comes back every 1,000 s: the wait is that, less the time since the bucket emptied, rounded up.
            let wait = try #require(refused.header("retry-after").flatMap(Int.init), "\(refused.headers)")
            #expect(refused.status == 429 && (900...1_000).contains(wait))
            #expect(refused.json["detail"] as? String == "com.example.busy went over 0.001 requests a second (bursts of 3); retry after \(wait) s")
        }
    }

    @Test func quotasAreCountedPerApp() async throws {
        try await DaemonHarness.with(rateLimit: RateLimit(requestsPerSecond: 0.001, burst: 4)) { daemon in
            let first = try await daemon.connect("com.example.first", share: [HKQuantityType(.stepCount)])
            let body = #"{"types":["HKQuantityTypeIdentifierStepCount"]}"#
            for _ in 0..<4 { _ = try await daemon.raw(.POST, "/v1/authorization/status", body: body, token: first) }
            #expect(try await daemon.raw(.POST, "/v1/authorization/status", body: body, token: first).status == 429)
            // Registering and claiming draw from the bucket of requests without an app (two each, of its four).
            let second = try await daemon.connect("com.example.second", share: [HKQuantityType(.stepCount)])
            #expect(try await daemon.raw(.POST, "/v1/authorization/status", body: body, token: second).status == 200)
        }
    }
}
