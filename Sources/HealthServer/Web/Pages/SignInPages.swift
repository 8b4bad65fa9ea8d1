import Foundation
import HealthModel
import HealthStore
import Hummingbird

/// Signing in and out, and the first run that sets the person's passphrase.
///
/// - `GET/POST /setup` — the first run: the passphrase, twice. Only while the store has none.
/// - `GET/POST /signin` — the passphrase; wrong ones are limited as unlocking is (five in a row: a minute's wait). On an
///   encrypted store this is the store's passphrase, and signing in unlocks a locked store.
/// - `POST /signout` — ends the session.
struct SignInPages {
    let app: HealthWebApp

    func add(to router: Router<BasicRequestContext>) {
        router.get("setup") { request, _ in
            guard !PersonPassphrase.isSet(app.directory) else { return WebPage.redirect(to: "/signin") }
            return setupPage(nil, code: request.uri.queryParameters.get("code"))
        }
        router.post("setup") { _, _ in
            guard !PersonPassphrase.isSet(app.directory) else { return WebPage.redirect(to: "/signin") }
            let form = WebForm.current
            // Only whoever started the daemon saw the code: another user of this machine reaching the port cannot choose
            // the person's passphrase first.
            guard let code = form["code"], PersonSessions.same(code, app.setupCode) else {
                return setupPage("Open the address `health serve` printed: it carries the code that lets you set the passphrase.",
                                 code: nil, status: .forbidden)
            }
            guard let passphrase = form.fields.first(where: { $0.name == "passphrase" })?.value, !passphrase.isEmpty else {
                return setupPage("Choose a passphrase.", code: code, status: .badRequest)
            }
            guard passphrase == form.fields.first(where: { $0.name == "repeat" })?.value else {
                return setupPage("The two passphrases are not the same.", code: code, status: .badRequest)
            }
            do {
                try app.locking.setFirstPassphrase(passphrase)
            } catch let error as HKError where error.code == .errorInvalidArgument {
                return setupPage(error.message.prefix(1).uppercased() + error.message.dropFirst() + ".", code: code, status: .badRequest)
            }
            return signedIn(next: "/")
        }
        router.get("signin") { request, _ in
            guard PersonPassphrase.isSet(app.directory) else { return WebPage.redirect(to: "/setup") }
            if PersonSession.current != nil { return WebPage.redirect(to: WebPage.localPath(request.uri.queryParameters.get("next"))) }
            return signInPage(nil, next: request.uri.queryParameters.get("next"))
        }
        router.post("signin") { _, _ in
            guard PersonPassphrase.isSet(app.directory) else { return WebPage.redirect(to: "/setup") }
            let form = WebForm.current
            let next = form["next"]
            guard let passphrase = form.fields.first(where: { $0.name == "passphrase" })?.value, !passphrase.isEmpty else {
                return signInPage("Enter your passphrase.", next: next, status: .badRequest)
            }
            do {
                let replayed = try await app.locking.signIn(passphrase, apply: app.replay)
                if let replayed, replayed.applied + replayed.refused > 0 {
                    app.logger.info("signed in; writes kept while locked replayed", metadata: ["applied": "\(replayed.applied)"])
                }
            } catch LockingError.refused(let error) where error.reason == .wrongPassphrase {
                return signInPage("That passphrase is not right.", next: next, status: .forbidden)
            } catch LockingError.refused(let error) {
                return signInPage(error.message, next: next, status: .forbidden)
            } catch LockingError.tooManyAttempts(let wait) {
                var response = signInPage("Too many wrong passphrases in a row: wait a minute, then try again.", next: next, status: .tooManyRequests)
                response.headers[.retryAfter] = "\(max(1, wait.components.seconds))"
                return response
            }
            return signedIn(next: WebPage.localPath(next))
        }
        router.post("signout") { _, _ in
            if let session = PersonSession.current { app.sessions.end(session) }
            var response = WebPage.redirect(to: "/signin")
            response.setCookie(app.cookie(value: "", maxAge: 0))
            return response
        }
    }

    /// A new session, its cookie set, and on to `next`.
    private func signedIn(next: String) -> Response {
        let (cookieValue, _) = app.sessions.start(lockCount: app.locking.lockCount)
        var response = WebPage.redirect(to: next)
        response.setCookie(app.cookie(value: cookieValue, maxAge: Int(app.sessions.lifetime.components.seconds)))
        return response
    }

    private func signInPage(_ problem: String?, next: String?, status: HTTPResponse.Status = .ok) -> Response {
        let locked = app.locking.mode == .locked
        return WebPage.render("Sign in", status: status, """
            \(locked ? "<p class=\"notice\">The store is locked. Signing in unlocks it; what apps wrote meanwhile is saved then.</p>" as HTML : .empty)
            \(WebPage.notice(problem))
            <form method="post" action="/signin" class="stack">
            <input type="hidden" name="next" value="\(WebPage.localPath(next))">
            <label for="passphrase">Passphrase</label>
            <input id="passphrase" name="passphrase" type="password" autocomplete="current-password" required autofocus>
            <button type="submit">Sign in</button>
            </form>
            """)
    }

    private func setupPage(_ problem: String?, code: String?, status: HTTPResponse.Status = .ok) -> Response {
        WebPage.render("Welcome to Health", status: status, """
            <p>Choose the passphrase that guards your health data here. You will sign in with it; if you encrypt the store \
            (<code>health encrypt</code>), the same passphrase unlocks it. At least 8 characters.</p>
            \(WebPage.notice(problem))
            <form method="post" action="/setup" class="stack">
            <input type="hidden" name="code" value="\(code ?? "")">
            <label for="passphrase">Passphrase</label>
            <input id="passphrase" name="passphrase" type="password" autocomplete="new-password" minlength="8" required autofocus>
            <label for="repeat">The same again</label>
            <input id="repeat" name="repeat" type="password" autocomplete="new-password" minlength="8" required>
            <button type="submit">Set passphrase</button>
            </form>
            """)
    }
}
