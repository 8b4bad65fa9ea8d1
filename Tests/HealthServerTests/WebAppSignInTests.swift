import Foundation
@testable import HealthServer
@testable import HealthStore
import OpenHealthKit
import Testing

/// The web Health app's doors (issue 18): the first run, signing in and out, where a signed-out visit is sent, how a
/// session ends, the headers every answer carries, and where the app is not served at all.
@Suite("The web app: setup, sign-in and sessions")
struct WebAppSignInTests {
    /// Every page of the app, as a signed-out person might reach it (some with a query to be kept).
    static let pages = [
        "/", "/types/HKQuantityTypeIdentifierStepCount", "/types/HKQuantityTypeIdentifierStepCount?span=day&date=2025-06-10",
        "/requests", "/requests/0123456789abcdef01234567", "/shares/0123456789abcdef01234567", "/sources",
        "/sources/apps/com.example.steps", "/access-log", "/access-log?app=com.example.steps&day=2025-06-10", "/deliveries",
    ]

    /// Where a signed-out visit to `path` is sent: the sign-in page, with the path to come back to.
    static func signInAddress(for path: String) -> String {
        "/signin?next=" + path.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
    }

    // MARK: - The first run

    @Test func beforeAPassphraseExistsEveryPageAndSignInLeadToTheFirstRunPage() async throws {
        try await WebAppHarness.with(.none, signedIn: false) { web in
            for path in Self.pages + ["/signin"] {
                let page = try await web.browser.get(path)
                #expect(page.status == 303 && page.location == "/setup", "\(path): \(page.status) \(page.location ?? "")")
            }
            let setup = try await web.browser.get("/setup?code=\(DaemonHarness.setupCode)")
            #expect(setup.status == 200 && setup.heading == "Welcome to Health")
            #expect(setup.forms.contains { $0["action"] == "/setup" && $0["method"] == "post" })
            #expect(setup.hidden("code") == DaemonHarness.setupCode)
        }
    }

    @Test func theFirstRunPageRefusesWithoutTheCodeHealthServePrinted() async throws {
        try await WebAppHarness.with(.none, signedIn: false) { web in
            for code in [nil, "a-guessed-code"] {
                let fields = (code.map { [("code", $0)] } ?? []) + [("passphrase", WebAppHarness.passphrase), ("repeat", WebAppHarness.passphrase)]
                let refused = try await web.browser.post("/setup", fields, csrf: .none)
                #expect(refused.status == 403, "\(refused.status)")
                #expect(refused.message?.hasPrefix("Open the address `health serve` printed") == true, "\(refused.message ?? refused.body)")
                #expect(refused.forms.contains { $0["action"] == "/setup" }, "the form is shown again")
                #expect(refused.hidden("code") == "", "a wrong code is not echoed back")
                #expect(refused.sessionCookie == nil)
            }
            #expect(!PersonPassphrase.isSet(web.daemon.store))
            #expect(try await web.browser.get("/").location == "/setup")
        }
    }

    @Test func mismatchedShortOrMissingPassphrasesAre400WithTheFormAndAMessage() async throws {
        try await WebAppHarness.with(.none, signedIn: false) { web in
            let code = DaemonHarness.setupCode
            let cases: [(passphrase: String, repeat: String, message: String)] = [
                ("a long enough passphrase", "a long enough passphrasf", "The two passphrases are not the same."),
                ("short", "short", "A store's passphrase must be at least 8 characters long."),
                ("", "", "Choose a passphrase."),
            ]
            for (passphrase, again, message) in cases {
                let refused = try await web.browser.post("/setup", [("code", code), ("passphrase", passphrase), ("repeat", again)], csrf: .none)
                #expect(refused.status == 400, "\(passphrase): \(refused.status)")
                #expect(refused.message == message, "\(refused.message ?? refused.body)")
                #expect(refused.forms.contains { $0["action"] == "/setup" })
                #expect(refused.hidden("code") == code, "the code is kept for the next try")
                #expect(refused.inputs.contains { $0["name"] == "passphrase" && $0["type"] == "password" })
                #expect(refused.sessionCookie == nil)
            }
            #expect(!PersonPassphrase.isSet(web.daemon.store))
        }
    }

    /// With the standard key derivation, as a person's first run has it.
    @Test func settingThePassphraseSignsInAndAfterwardsTheFirstRunPageLeadsToSignIn() async throws {
        try await WebAppHarness.with(.none, signedIn: false) { web in
            let done = try await web.browser.setUp()
            #expect(done.sessionCookie?.value.isEmpty == false)
            #expect(PersonPassphrase.isSet(web.daemon.store))
            let summary = try await web.browser.get("/")
            #expect(summary.status == 200 && summary.heading == "Summary", "\(summary.status)")
            #expect(try await web.browser.get("/setup").location == "/signin")
            // Nobody sets it again: a second first run, code and all, goes to sign-in and changes nothing.
            let other = web.newBrowser()
            let again = try await other.post("/setup", [("code", DaemonHarness.setupCode), ("passphrase", "another passphrase"),
                                                        ("repeat", "another passphrase")], csrf: .none)
            #expect(again.status == 303 && again.location == "/signin" && again.sessionCookie == nil)
            #expect(try await other.post("/signin", [("passphrase", "another passphrase")], csrf: .none).status == 403)
            try await other.signIn()
        }
    }

    // MARK: - Signing in

    @Test func aWrongPassphraseIs403WithTheFormAndAMessageAndNoSession() async throws {
        try await WebAppHarness.with(signedIn: false) { web in
            let wrong = try await web.browser.post("/signin", [("passphrase", "not the passphrase"), ("next", "/sources")], csrf: .none)
            #expect(wrong.status == 403)
            #expect(wrong.message == "That passphrase is not right.")
            #expect(wrong.forms.contains { $0["action"] == "/signin" })
            #expect(wrong.hidden("next") == "/sources", "where to go after is kept")
            #expect(wrong.sessionCookie == nil && web.browser.cookie == nil)
            let empty = try await web.browser.post("/signin", [("passphrase", "")], csrf: .none)
            #expect(empty.status == 400 && empty.message == "Enter your passphrase.")
            #expect(try await web.browser.get("/").location == Self.signInAddress(for: "/"))
        }
    }

    @Test func fiveWrongPassphrasesInARowAre429AndThenEvenTheRightOneWaits() async throws {
        try await WebAppHarness.with(signedIn: false) { web in
            for attempt in 1...5 {
                let wrong = try await web.browser.post("/signin", [("passphrase", "guess number \(attempt)")], csrf: .none)
                #expect(wrong.status == 403, "attempt \(attempt): \(wrong.status)")
            }
            let right = try await web.browser.post("/signin", [("passphrase", WebAppHarness.passphrase)], csrf: .none)
            #expect(right.status == 429)
            let wait = Int(right.header("retry-after") ?? "") ?? 0
            #expect((1...60).contains(wait), "Retry-After: \(right.header("retry-after") ?? "none")")
            #expect(right.message == "Too many wrong passphrases in a row: wait a minute, then try again.")
            #expect(right.forms.contains { $0["action"] == "/signin" })
            #expect(right.sessionCookie == nil && web.browser.cookie == nil)
            #expect(try await web.browser.get("/").location == Self.signInAddress(for: "/"))
        }
    }

    @Test func aSignedOutVisitToAnyPageGoesToSignInAndComesBackAfter() async throws {
        try await WebAppHarness.with(signedIn: false) { web in
            #expect(Self.signInAddress(for: "/") == "/signin?next=%2F")
            for path in Self.pages {
                let browser = web.newBrowser()
                let visit = try await browser.get(path)
                #expect(visit.status == 303 && visit.location == Self.signInAddress(for: path), "\(path): \(visit.status) \(visit.location ?? "")")
                let signInPage = try await browser.get(try #require(visit.location))
                #expect(signInPage.status == 200 && signInPage.heading == "Sign in")
                #expect(signInPage.hidden("next") == path)
                let signedIn = try await browser.post("/signin", [("passphrase", WebAppHarness.passphrase), ("next", signInPage.hidden("next") ?? "")],
                                                      csrf: .none)
                #expect(signedIn.status == 303 && signedIn.location == path, "\(path): back to \(signedIn.location ?? "nowhere")")
                let back = try await browser.get(path)
                #expect(back.status != 303 && back.isHTML, "\(path): \(back.status) \(back.location ?? "")")
            }
        }
    }

    @Test func aNextThatLeavesTheSiteGoesToTheSummaryInstead() async throws {
        try await WebAppHarness.with(signedIn: false) { web in
            for next in ["//evil.example", "https://evil.example", "//evil.example/path", "/\\evil.example", "evil.example"] {
                let browser = web.newBrowser()
                let page = try await browser.get("/signin?next=" + next.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)
                #expect(page.hidden("next") == "/", "\(next) kept in the form as \(page.hidden("next") ?? "nothing")")
                let signedIn = try await browser.post("/signin", [("passphrase", WebAppHarness.passphrase), ("next", next)], csrf: .none)
                #expect(signedIn.status == 303 && signedIn.location == "/", "\(next) led to \(signedIn.location ?? "nowhere")")
                // Signed in, the sign-in page sends on at once: to the Summary, never away.
                let again = try await browser.get("/signin?next=" + next.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)
                #expect(again.status == 303 && again.location == "/", "\(next) led to \(again.location ?? "nowhere")")
            }
        }
    }

    /// Browsers drop tabs and newlines from a URL before reading it (WHATWG URL), so `/<tab>/evil.example` is
    /// `//evil.example`: another host.
    @Test func aNextABrowserReadsAsAnotherHostGoesToTheSummaryInstead() async throws {
        try await WebAppHarness.with(signedIn: false) { web in
            let next = "/\t/evil.example"
            let signedIn = try await web.browser.post("/signin", [("passphrase", WebAppHarness.passphrase), ("next", next)], csrf: .none)
            #expect(signedIn.status == 303)
            #expect(signedIn.location == "/", "\(String(reflecting: signedIn.location))")
            let again = try await web.browser.get("/signin?next=" + next.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)
            #expect(again.status == 303)
            #expect(again.location == "/", "\(String(reflecting: again.location))")
        }
    }

    // MARK: - Sessions

    @Test func aSessionEndsAfterItsIdleTimeout() async throws {
        // That a session lives until then is what every other signed-in test shows; this one shows its end. (Checking
        // a page right after signing in too was flaky: on CI, with every suite at once on two cores, the sign-in and the
        // next page were seen more than five seconds apart.)
        try await WebAppHarness.with(sessionIdleTimeout: .seconds(2)) { web in
            try await Task.sleep(for: .milliseconds(2_500))
            let expired = try await web.browser.get("/sources")
            #expect(expired.status == 303 && expired.location == Self.signInAddress(for: "/sources"), "\(expired.status)")
            // And a form of the expired session changes nothing: it is a signed-out post, sent to sign in.
            let post = try await web.browser.post("/signout")
            #expect(post.status == 303 && post.location == Self.signInAddress(for: "/"), "\(post.status) \(post.location ?? "")")
        }
    }

    @Test func signingOutEndsTheSessionAndTheOldCookieNoLongerWorks() async throws {
        try await WebAppHarness.with { web in
            let old = try #require(web.browser.cookie)
            #expect(try await web.browser.get("/sources").status == 200)
            // Only the form signs out: a link (a GET) to it, say from another site, does not.
            let link = try await web.browser.get("/signout")
            #expect(link.isHTML && (link.status == 404 || link.status == 405) && link.sessionCookie == nil, "\(link.status)")
            #expect(try await web.browser.get("/sources").status == 200)
            let signedOut = try await web.browser.post("/signout")
            #expect(signedOut.status == 303 && signedOut.location == "/signin")
            let cleared = try #require(signedOut.sessionCookie)
            #expect(cleared.value.isEmpty && cleared.attributes["max-age"] == "0", "\(cleared.line)")
            #expect(web.browser.cookie == nil)
            web.browser.cookie = old   // a copy of the cookie kept somewhere
            let page = try await web.browser.get("/sources")
            #expect(page.status == 303 && page.location == Self.signInAddress(for: "/sources"))
        }
    }

    @Test func theSessionCookieIsHttpOnlyAndSameSiteStrict() async throws {
        try await WebAppHarness.with(signedIn: false) { web in
            let signedIn = try await web.browser.post("/signin", [("passphrase", WebAppHarness.passphrase)], csrf: .none)
            let cookie = try #require(signedIn.sessionCookie, "\(signedIn.headers)")
            #expect(cookie.value.count >= 43 && cookie.value.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }, "\(cookie.line)")
            #expect(cookie.attributes["httponly"] == "", "\(cookie.line)")
            #expect(cookie.attributes["samesite"] == "Strict", "\(cookie.line)")
            #expect(cookie.attributes["path"] == "/", "\(cookie.line)")
            #expect(cookie.attributes["secure"] == nil, "plain HTTP on loopback: \(cookie.line)")
            #expect(Int(cookie.attributes["max-age"] ?? "") == 12 * 3600, "\(cookie.line)")
            // Each sign-in is a session of its own.
            let other = try await web.newBrowser().post("/signin", [("passphrase", WebAppHarness.passphrase)], csrf: .none)
            #expect(other.sessionCookie?.value != cookie.value)
        }
    }

    @Test func everyAnswerCarriesTheSecurityHeadersAndNoPageHasInlineScriptOrStyle() async throws {
        try await WebAppHarness.with(signedIn: false) { web in
            var answers: [(String, WebClient.Page)] = [("/ signed out", try await web.browser.get("/")),
                                                      ("/signin", try await web.browser.get("/signin"))]
            try await web.browser.signIn()
            for path in Self.pages + ["/types/HKQuantityTypeIdentifierNoSuchType", "/no/such/page", "/static/health.css", "/static/health.js"] {
                answers.append((path, try await web.browser.get(path)))
            }
            answers.append(("POST / (not a route)", try await web.browser.post("/")))
            for (path, answer) in answers {
                let policy = answer.header("content-security-policy") ?? ""
                #expect(policy.contains("default-src 'none'") && policy.contains("script-src 'self'") && policy.contains("style-src 'self'"),
                        "\(path): \(policy)")
                #expect(policy.contains("frame-ancestors 'none'") && policy.contains("form-action 'self'"), "\(path): \(policy)")
                #expect(!policy.contains("unsafe-inline") && !policy.contains("unsafe-eval"), "\(path): \(policy)")
                #expect(answer.header("x-frame-options") == "DENY", "\(path)")
                #expect(answer.header("x-content-type-options") == "nosniff", "\(path)")
                guard answer.isHTML else { continue }
                #expect(answer.header("cache-control") == "no-store", "\(path)")
                // What the policy would block must not be needed: no inline script, style or handler.
                let scripts = WebClient.Page.tags("script", in: answer.body)
                #expect(!scripts.isEmpty && scripts.allSatisfy { $0["src"]?.hasPrefix("/static/") == true }, "\(path): \(scripts)")
                #expect(!answer.body.contains("<style") && !answer.body.contains(" style=\""), "\(path)")
                #expect(answer.body.firstMatch(of: /\son[a-z]+="/) == nil, "\(path)")
            }
            let notFound = try #require(answers.first { $0.0 == "/no/such/page" }?.1)
            #expect(notFound.status == 404 && notFound.message == "There is no page at /no/such/page.")
        }
    }

    // MARK: - An encrypted store

    @Test func signingInToALockedEncryptedStoreUnlocksItAndMakesTheWritesKeptMeanwhile() async throws {
        try await WebAppHarness.with(.encrypted, signedIn: false) { web in
            let token = try await web.daemon.connect("com.example.steps", share: [HKQuantityType(.stepCount)], read: [HKQuantityType(.stepCount)])
            let locked = try await web.daemon.raw(.POST, "/person/lock", body: #"{"passphrase": "\#(WebAppHarness.passphrase)"}"#)
            #expect(locked.json["state"] as? String == "locked", "\(locked.body)")
            let kept = try await web.daemon.raw(.POST, "/v1/objects", body: """
                {"samples":[{"uuid":"\(UUID())","type":"HKQuantityTypeIdentifierStepCount","startDate":"2025-06-10T08:00:00Z","endDate":"2025-06-10T08:10:00Z","quantity":{"value":321,"unit":"count"}}]}
                """, token: token)
            #expect(kept.status == 204, "\(kept.body)")

            #expect(try await web.browser.get("/").location == Self.signInAddress(for: "/"))
            let signInPage = try await web.browser.get(Self.signInAddress(for: "/"))
            #expect(signInPage.body.contains("The store is locked. Signing in unlocks it"))
            let wrong = try await web.browser.post("/signin", [("passphrase", "not the store's passphrase")], csrf: .none)
            #expect(wrong.status == 403 && wrong.message == "That passphrase is not right.", "\(wrong.status) \(wrong.message ?? "")")
            #expect(try await web.daemon.raw(.GET, "/person/lock").json["state"] as? String == "locked")

            try await web.browser.signIn()
            #expect(try await web.daemon.raw(.GET, "/person/lock").json["state"] as? String == "unlocked")
            let summary = try await web.browser.get("/")
            #expect(summary.status == 200 && summary.heading == "Summary")
            #expect(summary.body.contains("<span class=\"type\">Step Count</span>"), "the write kept while locked is in the store")
            #expect(try web.daemon.person().sampleCount(of: HKQuantityType(.stepCount)) == 1)
        }
    }

    /// A store that cannot be unlocked for another reason than the passphrase says why, instead of "not right" (the
    /// page tells the two apart by the store's refusal, not by its wording).
    @Test func aDamagedKeyFileIsNamedOnTheSignInPageNotTakenForAWrongPassphrase() async throws {
        try await WebAppHarness.with(.encrypted, signedIn: false) { web in
            let locked = try await web.daemon.raw(.POST, "/person/lock", body: #"{"passphrase": "\#(WebAppHarness.passphrase)"}"#)
            #expect(locked.json["state"] as? String == "locked", "\(locked.body)")
            let keyFile = web.daemon.store.appendingPathComponent("health.key")
            let original = try Data(contentsOf: keyFile)
            try Data("{}".utf8).write(to: keyFile)
            let refused = try await web.browser.post("/signin", [("passphrase", WebAppHarness.passphrase)], csrf: .none)
            #expect(refused.status == 403)
            #expect(refused.message?.contains("is not an OpenHealthKit store key file") == true, "\(refused.message ?? "")")
            #expect(refused.sessionCookie == nil)
            // The right passphrase, the key file put back: signed in.
            try original.write(to: keyFile)
            try await web.browser.signIn()
            #expect(try await web.daemon.raw(.GET, "/person/lock").json["state"] as? String == "unlocked")
        }
    }

    @Test func lockingTheStoreEndsTheSession() async throws {
        try await WebAppHarness.with(.encrypted) { web in
            #expect(try await web.browser.get("/sources").status == 200)
            let locked = try await web.daemon.raw(.POST, "/person/lock", body: #"{"passphrase": "\#(WebAppHarness.passphrase)"}"#)
            #expect(locked.json["state"] as? String == "locked", "\(locked.body)")
            let page = try await web.browser.get("/sources")
            #expect(page.status == 303 && page.location == Self.signInAddress(for: "/sources"))
            // The session is over, not merely hidden while locked: unlocking at the terminal does not bring it back.
            let unlocked = try await web.daemon.raw(.POST, "/person/unlock", body: #"{"passphrase": "\#(WebAppHarness.passphrase)"}"#)
            #expect(unlocked.json["state"] as? String == "unlocked", "\(unlocked.body)")
            #expect(try await web.browser.get("/sources").location == Self.signInAddress(for: "/sources"))
        }
    }

    /// Locked and unlocked again at the terminal (`health lock`, `health unlock`) while the browser sat idle: the
    /// session ended at the lock all the same.
    @Test func aSessionEndsAtALockEvenIfTheStoreIsUnlockedBeforeTheNextPage() async throws {
        try await WebAppHarness.with(.encrypted) { web in
            #expect(try await web.browser.get("/sources").status == 200)
            let proof = #"{"passphrase": "\#(WebAppHarness.passphrase)"}"#
            #expect(try await web.daemon.raw(.POST, "/person/lock", body: proof).json["state"] as? String == "locked")
            #expect(try await web.daemon.raw(.POST, "/person/unlock", body: proof).json["state"] as? String == "unlocked")
            let page = try await web.browser.get("/sources")
            #expect(page.status == 303 && page.location == Self.signInAddress(for: "/sources"), "\(page.status)")
        }
    }

    // MARK: - Where the app is not served

    @Test func theUnixSocketServesNoWebPages() async throws {
        try await WebAppHarness.with(signedIn: false) { web in
            // The socket answers the web app's paths as the API answers any path it does not have: a problem document.
            let unknown = try await web.daemon.raw(.GET, "/no-such-path")
            #expect(unknown.status == 401 || unknown.status == 404, "\(unknown.status)")
            for path in ["/", "/signin", "/setup", "/static/health.css", "/sources"] {
                let answer = try await web.daemon.raw(.GET, path)
                #expect(answer.status == unknown.status, "\(path): \(answer.status)")
                #expect(answer.header("content-type")?.hasPrefix("application/problem+json") == true, "\(path): \(answer.header("content-type") ?? "")")
                #expect(!answer.body.contains("<html") && answer.header("set-cookie") == nil, "\(path)")
                #expect(answer.header("content-security-policy") == nil, "\(path): not the web app's answer")
            }
            let signIn = try await web.daemon.raw(.POST, "/signin", body: "passphrase=correct+horse+battery+staple",
                                                  headers: [("content-type", "application/x-www-form-urlencoded")])
            #expect(signIn.status == unknown.status && signIn.header("set-cookie") == nil, "\(signIn.status)")
            // The same paths on the loopback listener are the web app's.
            #expect(try await web.browser.get("/signin").isHTML)
        }
    }

    @Test func plainHTTPAwayFromLoopbackCarriesNeitherThePersonsRoutesNorTheWebApp() {
        for host in ["0.0.0.0", "::", "192.168.1.20", "10.0.0.1", "example.com", "fe80::1"] {
            #expect(!PathDispatch.carriesPersonRoutes(host: host, secure: false), "\(host)")
            #expect(PathDispatch.carriesPersonRoutes(host: host, secure: true), "\(host) over HTTPS")
        }
        for host in ["127.0.0.1", "127.0.0.53", "::1", "localhost"] {
            #expect(PathDispatch.carriesPersonRoutes(host: host, secure: false), "\(host)")
        }
        let daemon = HealthDaemon(configuration: .init(storeDirectory: URL(fileURLWithPath: "/tmp/ohk-none"), tcpPort: 0, tcpHost: "0.0.0.0"))
        #expect(daemon.healthAppAddress(.tcp(host: "0.0.0.0", port: 8080, secure: false)) == nil)
        #expect(daemon.healthAppAddress(.unixSocket(path: "/tmp/ohk-none/d.sock")) == nil)
        #expect(daemon.healthAppAddress(.tcp(host: "127.0.0.1", port: 8080, secure: false))?.hasPrefix("http://127.0.0.1:8080/setup?code=") == true)
    }
}

