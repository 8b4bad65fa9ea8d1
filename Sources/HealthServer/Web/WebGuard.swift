import Foundation
import HealthModel
import HealthStore
import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// What every request to the web Health app passes through:
/// - security headers on every answer (a Content-Security-Policy with no inline script or style, frame denial, no
///   sniffing, the referrer kept to this site (`no-referrer` would make browsers post `Origin: null`), nothing cached);
/// - the session: a page reached signed out redirects to the sign-in page (to the first-run page while the store has no
///   passphrase), and back to the page after signing in; a locked store ends the session;
/// - posts: a form from another origin is refused, and a signed-in form must carry its session's CSRF token; the form is
///   parsed once for the route (``WebForm/current``);
/// - errors as pages: a person's mistake is a 400 page saying what was wrong; nothing is a bare 500.
struct WebGuard<Context: RequestContext>: RouterMiddleware {
    let sessions: PersonSessions
    let locking: StoreLocking
    let logger: Logger
    /// The largest form accepted.
    static var maximumFormBytes: Int { 256 << 10 }

    /// Paths reached without a session.
    static func isOpen(_ path: String) -> Bool {
        path == "/signin" || path == "/setup" || path.hasPrefix("/static/")
    }
}

/// The headers every page of the web app carries.
enum WebHeaders {
    static let security: HTTPFields = [
        .contentSecurityPolicy: "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
        HTTPField.Name("X-Frame-Options")!: "DENY",
        .xContentTypeOptions: "nosniff",
        HTTPField.Name("Referrer-Policy")!: "same-origin",
        HTTPField.Name("Cross-Origin-Opener-Policy")!: "same-origin",
    ]
}

extension WebGuard {

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response: Response
        let started = ContinuousClock.now
        do {
            response = try await guarded(request, context: context, next: next)
        } catch {
            response = errorPage(error, request: request)
        }
        // The server's time for the page (W3C Server Timing): what the page benchmark reads, and a browser's tools show.
        let elapsed = (ContinuousClock.now - started).components
        let milliseconds = Double(elapsed.seconds) * 1000 + Double(elapsed.attoseconds) / 1e15
        response.headers[HTTPField.Name("Server-Timing")!] = "page;dur=\(String(format: "%.2f", milliseconds))"
        for field in WebHeaders.security where response.headers[field.name] == nil { response.headers.append(field) }
        if response.headers[.cacheControl] == nil { response.headers[.cacheControl] = "no-store" }
        return response
    }

    private func guarded(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let path = request.uri.path
        if request.method == .post, !Self.sameOrigin(request) {
            throw WebRefusal(.forbidden, "This form was sent from another site, so it was not accepted.")
        }
        var session = sessions.session(cookieValue: request.cookies[PersonSessions.cookieName]?.value)
        if let live = session, locking.mode == .locked || live.lockCount != locking.lockCount {
            // Locked (now or since the session began) means the passphrase is needed again: whoever was signed in signs
            // in again, which unlocks.
            sessions.end(live)
            session = nil
        }
        if !Self.isOpen(path) {
            guard PersonPassphrase.isSet(locking.database.directory) else { return WebPage.redirect(to: "/setup") }
            guard session != nil else {
                let target = request.method == .get ? request.uri.description : "/"
                return WebPage.redirect(to: "/signin?next=" + (target.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "/"))
            }
        }
        var form = WebForm()
        let isForm = (request.headers[.contentType] ?? "").lowercased().hasPrefix("application/x-www-form-urlencoded")
        if request.method == .post, !isForm {
            // Only uploads (an export, health records, cards) come as anything but a form; each checks its own token.
            guard ["/import", "/records/import", "/records/cards"].contains(path), session != nil else {
                throw WebRefusal(.unsupportedMediaType, "This page takes a form (application/x-www-form-urlencoded).")
            }
        } else if request.method == .post {
            let body: ByteBuffer
            do { body = try await request.body.collect(upTo: Self.maximumFormBytes) } catch {
                throw WebRefusal(.contentTooLarge, "The form sent was larger than \(Self.maximumFormBytes >> 10) KB, so nothing was changed.", title: "Too large")
            }
            form = WebForm(urlencoded: String(buffer: body))
            if let session {
                guard let token = form["csrf"], PersonSessions.same(token, session.csrfToken) else {
                    throw WebRefusal(.forbidden, "This form had expired or was not sent from this page, so nothing was changed. Go back, reload the page and try again.")
                }
            }
        }
        return try await PersonSession.$current.withValue(session) {
            try await WebForm.$current.withValue(form) { try await next(request, context) }
        }
    }

    /// Whether a post comes from this very origin: its `Origin` (or `Referer`), when the browser sends one, must name the
    /// host it was sent to. Browsers send `Origin` with every form post; a post without either is a tool's, and the CSRF
    /// token still guards it.
    static func sameOrigin(_ request: Request) -> Bool {
        guard let host = request.head.authority else { return true }
        let claimed = request.headers[.origin] ?? request.headers[.referer]
        guard let claimed, claimed != "null" else { return request.headers[.origin] == nil }
        guard let url = URL(string: claimed), let claimedHost = url.host else { return false }
        let claimedAuthority = url.port.map { "\(claimedHost):\($0)" } ?? claimedHost
        return claimedAuthority.lowercased() == host.lowercased()
    }

    private func errorPage(_ error: any Error, request: Request) -> Response {
        switch error {
        case let refusal as WebRefusal:
            return WebPage.message(title: refusal.title, text: refusal.message, status: refusal.status)
        case let error as HKError:
            let status: HTTPResponse.Status = error.code == .errorDatabaseInaccessible ? .serviceUnavailable : .badRequest
            return WebPage.message(title: status == .serviceUnavailable ? "The store cannot be read" : "That did not work",
                                   text: error.message, status: status)
        case let error as HTTPError where error.status == .notFound:
            return WebPage.message(title: "No such page", text: "There is no page at \(request.uri.path).", status: .notFound)
        case let error as HTTPError where error.status == .contentTooLarge:
            return WebPage.message(title: "Too large", text: "The form sent was larger than this page accepts.", status: .contentTooLarge)
        case let error as HTTPError where error.status == .methodNotAllowed:
            return WebPage.message(title: "Not here", text: "This page cannot be \(request.method == .post ? "posted to" : "fetched that way").",
                                   status: .methodNotAllowed)
        default:
            logger.error("a page failed", metadata: ["path": "\(request.uri.path)", "error": "\(error)"])
            return WebPage.message(title: "Something went wrong", text: "The page could not be made; the daemon's log says why.",
                                   status: .internalServerError)
        }
    }
}

/// A request the web app turns down, answered as a page saying why.
struct WebRefusal: Error {
    var status: HTTPResponse.Status
    var title: String
    var message: String

    init(_ status: HTTPResponse.Status, _ message: String, title: String? = nil) {
        self.status = status
        self.message = message
        self.title = title ?? (status == .forbidden ? "Not accepted" : status == .notFound ? "Not found" : "That did not work")
    }
}

/// The signed-in session of the current request, set by ``WebGuard``; nil on the open pages when signed out.
enum PersonSession {
    @TaskLocal static var current: PersonSessions.Session?
}
