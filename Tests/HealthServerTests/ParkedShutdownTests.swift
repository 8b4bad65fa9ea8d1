import Foundation
import HealthAPI
import OpenHealthKit
import Testing
import TestSupport

/// A daemon stopping while an app's authorization request waits for the person: the sheet closes (the app hears a
/// closed sheet) and the daemon stops at once, instead of waiting out the request's five minutes.
@Suite("The daemon: stopping with a sheet parked")
struct ParkedShutdownTests {
    @Test func aParkedRequestDoesNotHoldTheShutdown() async throws {
        let daemon = try await DaemonHarness.start()
        // The request waits through the shutdown, which may take up to the bound below on a loaded machine (in a full run
        // the client's default 30 s ran out first).
        let client = daemon.client(token: try await daemon.connect("com.example.steps", name: "Steps"), timeout: .seconds(150))
        let body = Components.Schemas.AuthorizationRequest(share: [HKQuantityType(.stepCount).identifier], read: [])
        let request = Task { try await client.requestAuthorization(body: .json(body)) }
        #expect(try await AuthorizationRequestTests.waiting(daemon).count == 1)
        let stopping = ContinuousClock.now
        await daemon.stopKeepingTheStore()
        let took = ContinuousClock.now - stopping
        // Without the notice the shutdown waits out the request's 300 s; alone it takes a fraction of a second, and with
        // every suite at once on two cores 47 s was seen.
        #expect(took < .seconds(120), "the shutdown took \(took)")
        // The app heard a closed sheet (409 errorUserCanceled), and nothing waits any more.
        let answer = try await request.value
        guard case .conflict = answer else { Issue.record("expected a closed sheet, got \(answer)"); return }
        #expect(try daemon.person().pendingAuthorizationRequests().isEmpty)
        try? FileManager.default.removeItem(at: daemon.folder)
    }

    /// An app that stops waiting for its sheet (its connection closed) closes the sheet at once: the person no longer
    /// sees a request nobody waits for, instead of until its timeout.
    @Test func aSheetWhoseAppStoppedWaitingClosesAtOnce() async throws {
        try await DaemonHarness.with { daemon in
            let client = daemon.client(token: try await daemon.connect("com.example.steps", name: "Steps"))
            let body = Components.Schemas.AuthorizationRequest(share: [HKQuantityType(.stepCount).identifier], read: [], timeoutSeconds: 600)
            let request = Task { try await client.requestAuthorization(body: .json(body)) }
            #expect(try await AuthorizationRequestTests.waiting(daemon).count == 1)
            request.cancel()
            _ = try? await request.value
            var waiting = 1
            for _ in 0..<1_200 where waiting > 0 {   // up to 60 s on a loaded machine; the timeout is 600 s
                try await Task.sleep(for: .milliseconds(50))
                waiting = try daemon.person().pendingAuthorizationRequests().count
            }
            #expect(waiting == 0, "the sheet still waits for an app that left")
            // The daemon serves the next request as before.
            #expect(try await daemon.raw(.GET, "/openapi.json").status == 200)
        }
    }
}
