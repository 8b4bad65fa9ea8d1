import Foundation
import HealthAPI
@testable import HealthServer
import HealthStore
import OpenHealthKit
import Testing

private let steps = HKQuantityType(.stepCount)
private let heartRate = HKQuantityType(.heartRate)
private let bodyMass = HKQuantityType(.bodyMass)

extension WebAppHarness {
    /// An app that registers with this manifest, is approved by the person, and claims its token; its client.
    func app(_ manifest: Components.Schemas.AppManifest) async throws -> Client {
        let registration = try await daemon.client().registerApp(body: .json(manifest)).created.body.json
        try daemon.person().decideRegistration(registration.id, .approved)
        let token = try await daemon.client().claimCredential(path: .init(registrationID: registration.id),
                                                              body: .json(.init(secret: registration.secret))).ok.body.json.token
        return daemon.client(token: token)
    }

    /// The app asks for `share` and `read` through the daemon (HealthKit's `requestAuthorization`), which waits for the
    /// person's answer; returns the waiting call and the request's id once the person can see it.
    func requestAuthorization(_ client: Client, share: [HKObjectType], read: [HKObjectType]) async throws
        -> (call: Task<Operations.RequestAuthorization.Output, any Error>, id: String)
    {
        let body = Components.Schemas.AuthorizationRequest(share: share.map(\.identifier), read: read.map(\.identifier), timeoutSeconds: 120)
        let call = Task { try await client.requestAuthorization(body: .json(body)) }
        let waiting = try await AuthorizationRequestTests.waiting(daemon)
        guard let id = waiting.keys.first else {
            call.cancel()
            throw CancellationError()
        }
        return (call, id)
    }

    /// An app that asked for `share` and `read` (its sheet answered by the person, every switch on): the types its page
    /// under Sources has switches for. Its client.
    func allowedApp(share: [HKObjectType], read: [HKObjectType]) async throws -> Client {
        let client = try await app(plainApp())
        let (call, id) = try await requestAuthorization(client, share: share, read: read)
        try daemon.person().answerAuthorizationRequest(id, .decided(share: Set(share.map(\.identifier)), read: Set(read.map(\.identifier))))
        _ = try await call.value.noContent
        return client
    }

    /// The app's sharing status of each of `types`, as `authorizationStatus(for:)` gives it.
    static func statuses(_ client: Client, _ types: [HKObjectType]) async throws -> [Components.Schemas.AuthorizationStatusValue] {
        try await client.authorizationStatus(body: .json(.init(types: types.map(\.identifier)))).ok.body.json.statuses
    }

    /// The person's permission for `bundle` and `type`: (share, read).
    func permission(_ bundle: String, _ type: HKObjectType) throws -> (share: Bool?, read: Bool?) {
        let access = try daemon.person().apps().first { $0.app.bundleIdentifier == bundle }?.types.first { $0.typeIdentifier == type.identifier }
        return (access?.share, access?.read)
    }
}

/// An app whose name and usage descriptions hold markup, as a hostile or careless app may send them.
private let markedUp = Components.Schemas.AppManifest(
    cfBundleIdentifier: "com.example.markup", cfBundleName: #"Tom & Jerry's <script>alert("x")</script>"#,
    nsHealthShareUsageDescription: "Reads <b>your</b> heart & more", nsHealthUpdateUsageDescription: "Logs <img src=x onerror=alert(1)> steps")

private func plainApp(_ bundle: String = "com.example.steps") -> Components.Schemas.AppManifest {
    .init(cfBundleIdentifier: bundle, cfBundleName: "Steps", nsHealthShareUsageDescription: "Shows your data.",
          nsHealthUpdateUsageDescription: "Logs your data.")
}

/// Apps' authorization requests answered on the web app's sheet (issue 18), as HealthKit's sheet answers them.
@Suite("The web app: authorization sheets")
struct WebAppRequestsTests {
    @Test func aRequestIsListedAndItsSheetShowsTheAppsNameAndUsageDescriptionsEscaped() async throws {
        try await WebAppHarness.with { web in
            let client = try await web.app(markedUp)
            let (call, id) = try await web.requestAuthorization(client, share: [steps], read: [heartRate])
            let summary = try await web.browser.get("/")
            #expect(summary.notice == "1 app request waits for your answer.", "\(summary.notice ?? "")")
            let list = try await web.browser.get("/requests")
            #expect(list.status == 200)
            #expect(list.body.contains("<a href=\"/requests/\(id)\">Tom &amp; Jerry&#39;s &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;</a> asks for 2 types"),
                    "\(list.body)")
            let sheet = try await web.browser.get("/requests/\(id)")
            #expect(sheet.status == 200)
            #expect(sheet.heading == #"“Tom & Jerry's <script>alert("x")</script>” would like to access your health data"#, "\(sheet.heading ?? "")")
            #expect(sheet.body.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;"))
            #expect(sheet.body.contains("<p class=\"usage\">Reads &lt;b&gt;your&lt;/b&gt; heart &amp; more</p>"))
            #expect(sheet.body.contains("<p class=\"usage\">Logs &lt;img src=x onerror=alert(1)&gt; steps</p>"))
            for raw in ["<script>alert", "<b>your</b>", "<img src=x", "Tom & Jerry"] {
                #expect(!sheet.body.contains(raw) && !list.body.contains(raw), "\(raw) as markup")
            }
            #expect(sheet.checkboxes("share").map(\.value) == [steps.identifier] && sheet.checked("share").isEmpty)
            #expect(sheet.checkboxes("read").map(\.value) == [heartRate.identifier] && sheet.checked("read").isEmpty)
            #expect(sheet.forms.contains { $0["action"] == "/requests/\(id)" })
            _ = try await web.browser.post("/requests/\(id)", [("action", "deny")])
            _ = try await call.value.noContent
        }
    }

    @Test func turnOnAllSetsEverySwitchAndAnswersNothing() async throws {
        try await WebAppHarness.with { web in
            let client = try await web.app(plainApp())
            let (call, id) = try await web.requestAuthorization(client, share: [steps, heartRate], read: [steps, bodyMass])
            _ = try await web.browser.get("/requests/\(id)")
            let all = try await web.browser.post("/requests/\(id)", [("action", "all")])
            #expect(all.status == 200, "\(all.status) \(all.location ?? "")")
            #expect(all.checkboxes("share").count == 2 && all.checked("share") == [steps.identifier, heartRate.identifier])
            #expect(all.checkboxes("read").count == 2 && all.checked("read") == [steps.identifier, bodyMass.identifier])
            #expect(all.forms.contains { $0["action"] == "/requests/\(id)" }, "the sheet again, to Allow")
            #expect(try web.daemon.person().pendingAuthorizationRequests().map(\.id) == [id], "still waiting")
            try await Task.sleep(for: .milliseconds(200))
            #expect(!call.isCancelled)
            #expect(try await WebAppHarness.statuses(client, [steps, heartRate]) == [.notDetermined, .notDetermined])
            // A post that is neither Allow nor Don't Allow answers nothing either.
            let neither = try await web.browser.post("/requests/\(id)", [("action", "maybe"), ("share", steps.identifier)])
            #expect(neither.status == 400 && neither.message == "Choose Allow or Don't Allow.",
                    "\(neither.status) \(neither.message ?? "")")
            #expect(try web.daemon.person().pendingAuthorizationRequests().map(\.id) == [id])
            _ = try await web.browser.post("/requests/\(id)", [("action", "deny")])
            _ = try await call.value.noContent
        }
    }

    @Test func allowWithTwoSwitchesOnCompletesTheAppsCallWithExactlyThoseChoices() async throws {
        try await WebAppHarness.with { web in
            let client = try await web.app(plainApp())
            let (call, id) = try await web.requestAuthorization(client, share: [steps, heartRate, bodyMass], read: [steps])
            _ = try await web.browser.get("/requests/\(id)")
            let water = HKQuantityType(.dietaryWater)
            let allowed = try await web.browser.post("/requests/\(id)", [("action", "allow"), ("share", steps.identifier), ("share", bodyMass.identifier),
                                                                        ("share", water.identifier)])   // not asked for: ignored
            #expect(allowed.status == 303 && allowed.location == "/requests?done=answered", "\(allowed.status) \(allowed.message ?? "")")
            let started = ContinuousClock.now
            _ = try await call.value.noContent
            // At the answer, not at the sheet's 120 s timeout (a closed sheet, which would leave every type undetermined).
            #expect(ContinuousClock.now - started < .seconds(100), "the app's call completes at the answer")
            #expect(try await WebAppHarness.statuses(client, [steps, heartRate, bodyMass, water])
                    == [.sharingAuthorized, .sharingDenied, .sharingAuthorized, .notDetermined])
            #expect(try web.permission("com.example.steps", steps).read == false, "reading steps was left off")
            #expect(try web.daemon.person().pendingAuthorizationRequests().isEmpty)
            let list = try await web.browser.get("/requests?done=answered")
            #expect(list.body.contains("<p>No app is waiting for an answer.</p>"))
            let gone = try await web.browser.get("/requests/\(id)")
            #expect(gone.status == 404 && gone.message?.hasPrefix("No app waits for this answer any more") == true, "\(gone.status)")
        }
    }

    @Test func dontAllowDeniesEveryTypeWhateverTheSwitches() async throws {
        try await WebAppHarness.with { web in
            let client = try await web.app(plainApp())
            let (call, id) = try await web.requestAuthorization(client, share: [steps, heartRate], read: [steps])
            _ = try await web.browser.get("/requests/\(id)")
            let denied = try await web.browser.post("/requests/\(id)", [("action", "deny"), ("share", steps.identifier), ("read", steps.identifier)])
            #expect(denied.status == 303 && denied.location == "/requests?done=answered", "\(denied.status)")
            _ = try await call.value.noContent
            #expect(try await WebAppHarness.statuses(client, [steps, heartRate]) == [.sharingDenied, .sharingDenied])
            #expect(try web.permission("com.example.steps", steps).read == false)
        }
    }

    @Test func answeringWithoutTheTokenLeavesTheRequestWaiting() async throws {
        try await WebAppHarness.with { web in
            let client = try await web.app(plainApp())
            let (call, id) = try await web.requestAuthorization(client, share: [steps], read: [])
            _ = try await web.browser.get("/requests/\(id)")
            for csrf: WebClient.CSRF in [.none, .token("forged")] {
                let refused = try await web.browser.post("/requests/\(id)", [("action", "allow"), ("share", steps.identifier)], csrf: csrf)
                #expect(refused.status == 403, "\(csrf): \(refused.status)")
            }
            let foreign = try await web.browser.post("/requests/\(id)", [("action", "allow"), ("share", steps.identifier)], origin: .other("https://evil.example"))
            #expect(foreign.status == 403)
            #expect(try web.daemon.person().pendingAuthorizationRequests().map(\.id) == [id])
            #expect(try await WebAppHarness.statuses(client, [steps]) == [.notDetermined])
            _ = try await web.browser.post("/requests/\(id)", [("action", "deny")])
            _ = try await call.value.noContent
        }
    }

    @Test func anUnknownRequestOrShareIsA404Page() async throws {
        try await WebAppHarness.with { web in
            for path in ["/requests/0123456789abcdef01234567", "/shares/0123456789abcdef01234567"] {
                let page = try await web.browser.get(path)
                #expect(page.status == 404 && page.isHTML, "\(path): \(page.status)")
                #expect(page.message == "No app waits for this answer any more (it was answered, or the app stopped waiting).")
                let post = try await web.browser.post(path, [("action", "allow")])
                #expect(post.status == 404, "\(path): \(post.status)")
            }
        }
    }
}

/// Sources (issue 18): apps connecting to the daemon approved from the page, and each app's switches.
@Suite("The web app: sources and permissions")
struct WebAppSourcesTests {
    @Test func approvingAPendingRegistrationFromThePageLetsTheAppClaimItsToken() async throws {
        try await WebAppHarness.with { web in
            let registration = try await web.daemon.client().registerApp(body: .json(plainApp())).created.body.json
            let claim = { try await web.daemon.client().claimCredential(path: .init(registrationID: registration.id),
                                                                        body: .json(.init(secret: registration.secret))) }
            #expect(try await claim().accepted.body.json.state == .pending)
            let sources = try await web.browser.get("/sources")
            let row = try #require(sources.rows.first { $0.first?.hasPrefix("Steps") == true }, "\(sources.rows)")
            #expect(row[0].contains("com.example.steps") && row[1] == "pending", "\(row)")
            let action = "/sources/registrations/\(registration.id)"
            #expect(sources.forms.filter { $0["action"] == action }.count == 2, "Approve and Deny")
            let approved = try await web.browser.post(action, [("decision", "approve")])
            #expect(approved.status == 303 && approved.location == "/sources?done=approved", "\(approved.status) \(approved.message ?? "")")
            let after = try await web.browser.get("/sources?done=approved")
            #expect(after.notice == "Approved: the app can now claim its credential.")
            #expect(after.rows.first { $0.first?.hasPrefix("Steps") == true }?[1] == "approved")
            let token = try await claim().ok.body.json.token
            #expect(try await WebAppHarness.statuses(web.daemon.client(token: token), [steps]) == [.notDetermined])
        }
    }

    @Test func aDecisionWithoutTheTokenOrOfNothingChangesNothing() async throws {
        try await WebAppHarness.with { web in
            let registration = try await web.daemon.client().registerApp(body: .json(plainApp())).created.body.json
            _ = try await web.browser.get("/sources")
            let action = "/sources/registrations/\(registration.id)"
            let refused = try await web.browser.post(action, [("decision", "approve")], csrf: .none)
            #expect(refused.status == 403, "\(refused.status)")
            let forged = try await web.browser.post(action, [("decision", "approve")], csrf: .token("forged"))
            #expect(forged.status == 403, "\(forged.status)")
            let neither = try await web.browser.post(action, [("decision", "maybe")])
            #expect(neither.status == 400 && neither.message == "Choose Approve, Deny or Revoke.", "\(neither.status)")
            let unknown = try await web.browser.post("/sources/registrations/000000000000000000000000", [("decision", "approve")])
            #expect(unknown.status == 404 && unknown.message == "No app registration has that id.", "\(unknown.status)")
            #expect(try web.daemon.person().registrations().map(\.state) == [.pending])
            let claim = try await web.daemon.client().claimCredential(path: .init(registrationID: registration.id),
                                                                      body: .json(.init(secret: registration.secret)))
            #expect(try claim.accepted.body.json.state == .pending)
        }
    }

    @Test func revokingFromThePageEndsTheAppsCredential() async throws {
        try await WebAppHarness.with { web in
            let token = try await web.daemon.connect("com.example.steps", share: [steps])
            #expect(try await WebAppHarness.statuses(web.daemon.client(token: token), [steps]) == [.sharingAuthorized])
            let sources = try await web.browser.get("/sources")
            let id = try #require(try web.daemon.person().registrations().first?.id)
            #expect(sources.forms.contains { $0["action"] == "/sources/registrations/\(id)" })
            let revoked = try await web.browser.post("/sources/registrations/\(id)", [("decision", "revoke")])
            #expect(revoked.status == 303 && revoked.location == "/sources?done=revoked")
            let refused = try await web.daemon.raw(.POST, "/v1/authorization/status", body: #"{"types":["\#(steps.identifier)"]}"#, token: token)
            #expect(refused.status == 401, "\(refused.status)")
        }
    }

    @Test func aTypeSwitchedOffOnTheAppsPageIsRefusedOnTheAppsNextCall() async throws {
        try await WebAppHarness.with { web in
            let client = try await web.allowedApp(share: [steps], read: [steps])
            let sample = { SampleAPITests.sample(steps.identifier, Date().addingTimeInterval(-3_600), quantity: .init(value: 10, unit: "count")) }
            _ = try await client.saveObjects(body: .json(.init(samples: [sample()]))).noContent
            let page = try await web.browser.get("/sources/apps/com.example.steps")
            #expect(page.status == 200 && page.heading == "Steps")
            #expect(page.checked("share") == [steps.identifier] && page.checked("read") == [steps.identifier])
            let saved = try await web.browser.post("/sources/apps/com.example.steps", [("read", steps.identifier)])
            #expect(saved.status == 303 && saved.location == "/sources/apps/com.example.steps?done=saved", "\(saved.status) \(saved.message ?? "")")
            let after = try await web.browser.get(try #require(saved.location))
            #expect(after.notice == "Saved. The app's next call sees the change.")
            #expect(after.checked("share").isEmpty && after.checked("read") == [steps.identifier])
            guard case .forbidden = try await client.saveObjects(body: .json(.init(samples: [sample()]))) else {
                Issue.record("saving steps was not refused after the switch was turned off")
                return
            }
            #expect(try web.permission("com.example.steps", steps) == (share: false, read: true))
            _ = try await client.querySamples(body: .json(.init(_type: steps.identifier))).ok
        }
    }

    @Test func changingAPermissionWithoutTheTokenChangesNothing() async throws {
        try await WebAppHarness.with { web in
            let client = try await web.allowedApp(share: [steps], read: [steps])
            _ = try await web.browser.get("/sources/apps/com.example.steps")
            // Every switch off, as the form posts it when the person turns them all off.
            for csrf: WebClient.CSRF in [.none, .token("forged")] {
                let refused = try await web.browser.post("/sources/apps/com.example.steps", [], csrf: csrf)
                #expect(refused.status == 403, "\(csrf): \(refused.status)")
            }
            let foreign = try await web.browser.post("/sources/apps/com.example.steps", [], origin: .other("https://evil.example"))
            #expect(foreign.status == 403)
            #expect(try web.permission("com.example.steps", steps) == (share: true, read: true))
            #expect(try await WebAppHarness.statuses(client, [steps]) == [.sharingAuthorized])
        }
    }

    @Test func anAppThatAskedForNothingHasNoPage() async throws {
        try await WebAppHarness.with { web in
            let page = try await web.browser.get("/sources/apps/com.example.nobody")
            #expect(page.status == 404 && page.message == "No app com.example.nobody has asked this store for anything.", "\(page.status)")
            let post = try await web.browser.post("/sources/apps/com.example.nobody", [("share", steps.identifier)])
            #expect(post.status == 404)
        }
    }

    @Test func theSourcesPageListsAppsWithPermissionsAndWhoseDataTheStoreHolds() async throws {
        try await WebAppHarness.with { web in
            _ = try await web.daemon.connect("com.example.steps", name: "Steps", share: [steps], read: [steps, heartRate])
            try web.entry(steps, 10, .count(), at: Date().addingTimeInterval(-3_600))
            try web.entry(steps, 20, .count(), at: Date().addingTimeInterval(-7_200))
            let page = try await web.browser.get("/sources")
            #expect(page.body.contains("<li><a href=\"/sources/apps/com.example.steps\">Steps</a> <span class=\"muted\">— 2 of 2 types allowed</span></li>"),
                    "\(page.body)")
            #expect(page.rows.contains(["Health", "com.apple.Health"]), "\(page.rows)")
        }
    }
}

/// What apps did, for the person to check (issue 18): the access log and deliveries, filtered.
@Suite("The web app: access log and deliveries")
struct WebAppActivityTests {
    @Test func theAccessLogFiltersByAppTypeAndDay() async throws {
        try await WebAppHarness.with { web in
            let calendar = try web.utc()
            let walker = web.daemon.client(token: try await web.daemon.connect("com.example.walker", name: "Walker", share: [steps], read: [steps]))
            let heart = web.daemon.client(token: try await web.daemon.connect("com.example.heart", name: "Heart", share: [heartRate]))
            let now = Date().addingTimeInterval(-600)
            _ = try await walker.saveObjects(body: .json(.init(samples: [SampleAPITests.sample(steps.identifier, now, quantity: .init(value: 5, unit: "count"))]))).noContent
            _ = try await walker.querySamples(body: .json(.init(_type: steps.identifier))).ok
            _ = try await heart.saveObjects(body: .json(.init(samples: [SampleAPITests.sample(heartRate.identifier, now, seconds: 0,
                                                                                             quantity: .init(value: 60, unit: "count/min"))]))).noContent
            #expect(try await AccessLogTests.lines(web.daemon, count: 3).count == 3)

            func apps(_ query: String) async throws -> [String] {
                let page = try await web.browser.get("/access-log" + query)
                #expect(page.status == 200, "\(query): \(page.status)")
                return page.rows.map { $0[1] }.sorted()
            }
            #expect(try await apps("") == ["com.example.heart", "com.example.walker", "com.example.walker"])
            #expect(try await apps("?app=com.example.walker") == ["com.example.walker", "com.example.walker"])
            let byType = try await web.browser.get("/access-log?type=\(heartRate.identifier)")
            #expect(byType.rows.map { [$0[1], $0[2], $0[3], $0[4], $0[5]] } == [["com.example.heart", "save", "Heart Rate", "1", "allowed"]], "\(byType.rows)")
            #expect(byType.field("type") == heartRate.identifier)
            let today = WebAppHarness.day(Date(), calendar)
            #expect(try await apps("?day=\(today)").count == 3)
            #expect(try await apps("?app=com.example.walker&type=\(heartRate.identifier)").isEmpty)
            let longAgo = try await web.browser.get("/access-log?day=2001-01-01")
            #expect(longAgo.rows.isEmpty && longAgo.body.contains("Nothing recorded that matches."))
            let selected = try await web.browser.get("/access-log?app=com.example.heart")
            #expect(selected.body.contains("<option value=\"com.example.heart\" selected>Heart</option>"))
        }
    }

    @Test func aBadDayIs400WithTheFiltersKeptAndAMessage() async throws {
        try await WebAppHarness.with { web in
            let token = try await web.daemon.connect("com.example.walker", share: [steps])
            _ = try await web.daemon.client(token: token).authorizationStatus(body: .json(.init(types: [steps.identifier]))).ok
            _ = try await AccessLogTests.lines(web.daemon, count: 1)
            for day in ["2025-02-30", "yesterday", "<b>"] {
                let page = try await web.browser.get("/access-log?type=\(steps.identifier)&day=" + day.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)
                #expect(page.status == 400, "\(day): \(page.status)")
                #expect(page.message == "\(day) is not a date (YYYY-MM-DD).", "\(page.message ?? page.body)")
                #expect(page.field("day") == day && page.field("type") == steps.identifier, "the filters kept")
                #expect(page.forms.contains { $0["action"] == "/access-log" } && page.rows.isEmpty)
                #expect(!page.body.contains("<b>"))
            }
        }
    }

    @Test func deliveriesFilterByStateAndAnUnknownStateIsA400Page() async throws {
        let receiver = try await CallbackReceiver.start()
        do {
            try await WebAppHarness.with(deliveryRetry: DeliveryRetry(firstDelay: .milliseconds(50), longestDelay: .milliseconds(200),
                                                                      maximumAttempts: 20, timeout: .seconds(5))) { web in
                let token = try await web.daemon.connect("com.example.steps", share: [steps], read: [steps])
                let set = try await web.daemon.raw(.PUT, "/v1/background-delivery-callback", body: #"{"url":"\#(receiver.url)"}"#, token: token)
                #expect(set.status == 200, "\(set.body)")
                let enabled = try await web.daemon.raw(.PUT, "/v1/background-delivery/\(steps.identifier)", body: #"{"frequency":"immediate"}"#, token: token)
                #expect(enabled.status == 204, "\(enabled.body)")
                _ = try await web.daemon.client(token: token).saveObjects(body: .json(.init(samples: [
                    SampleAPITests.sample(steps.identifier, Date().addingTimeInterval(-600), quantity: .init(value: 5, unit: "count")),
                ]))).noContent
                let deadline = ContinuousClock.now + .seconds(20)
                while try web.daemon.person().deliveries(state: .delivered).isEmpty, ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(20))
                }
                let all = try await web.browser.get("/deliveries")
                #expect(all.status == 200)
                #expect(all.rows.contains { $0[1] == "com.example.steps" && $0[2] == "Step Count" && $0[3] == "delivered" }, "\(all.rows)")
                let delivered = try await web.browser.get("/deliveries?state=delivered")
                #expect(!delivered.rows.isEmpty && delivered.rows.allSatisfy { $0[3] == "delivered" }, "\(delivered.rows)")
                #expect(delivered.body.contains("<option value=\"delivered\" selected>delivered</option>"))
                let failed = try await web.browser.get("/deliveries?state=failed")
                #expect(failed.status == 200 && failed.rows.isEmpty && failed.body.contains("<p class=\"muted\">No deliveries.</p>"))
                for state in ["bogus", "<b>"] {
                    let bad = try await web.browser.get("/deliveries?state=" + state.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)
                    #expect(bad.status == 400 && bad.isHTML, "\(state): \(bad.status)")
                    #expect(bad.message == "Unknown delivery state \(state).", "\(bad.message ?? bad.body)")
                    #expect(!bad.body.contains("<b>"))
                }
            }
        } catch {
            await receiver.stop()
            throw error
        }
        await receiver.stop()
    }
}
