import AsyncHTTPClient
import Foundation
import HealthServer
@testable import HealthStore
import NIOCore
import NIOHTTP1
import Synchronization
import Testing

/// A browser as far as the web Health app's server can tell, for tests: it talks HTTP/1.1 to the daemon's loopback
/// listener, keeps the `health_session` cookie the daemon sets (and forgets it when the daemon clears it), does not
/// follow redirects (a test reads the status and `Location`), and posts forms urlencoded with the page's own
/// `Origin`, as browsers do. Pages come back with what a test reads off them: hidden fields, checkboxes, messages.
final class WebClient: Sendable {
    let port: Int
    private let state = Mutex<State>(State())

    private struct State {
        var cookie: String?
        /// The CSRF field of the last page that had one: what a form of that page would post.
        var csrf: String?
    }

    /// The one AsyncHTTPClient every web client uses: redirects are the test's to read, never followed.
    private static let http = HTTPClient(eventLoopGroupProvider: .singleton,
                                         configuration: .init(redirectConfiguration: .disallow,
                                                              timeout: .init(connect: .seconds(10), read: .seconds(120))))

    init(port: Int) { self.port = port }

    /// `http://127.0.0.1:<port>`: the origin of every page.
    var origin: String { "http://127.0.0.1:\(port)" }

    /// The session cookie's value held now (nil when signed out, as far as the client knows).
    var cookie: String? {
        get { state.withLock { $0.cookie } }
        set { state.withLock { $0.cookie = newValue } }
    }

    /// The CSRF token of the last page fetched that had a form carrying one.
    var csrf: String? { state.withLock { $0.csrf } }

    /// What a form posts as its CSRF field.
    enum CSRF: Sendable {
        /// The token of the last page fetched (what the browser would post from it).
        case fromLastPage
        /// No `csrf` field at all.
        case none
        case token(String)
    }

    /// The `Origin` header of a post.
    enum PostOrigin: Sendable {
        /// The page's own origin, as a browser sends it.
        case same
        /// No `Origin` (nor `Referer`): a tool's post.
        case none
        /// Another site's.
        case other(String)
    }

    func get(_ path: String) async throws -> Page {
        try await send(.GET, path, body: nil, headers: [])
    }

    /// Posts a form of `fields` (urlencoded, in order), with the CSRF field `csrf` first and the `Origin` `origin`.
    func post(_ path: String, _ fields: [(String, String)] = [], csrf: CSRF = .fromLastPage, origin: PostOrigin = .same) async throws -> Page {
        var all = fields
        switch csrf {
        case .fromLastPage: if let token = self.csrf { all.insert(("csrf", token), at: 0) }
        case .none: break
        case .token(let token): all.insert(("csrf", token), at: 0)
        }
        var headers = [("content-type", "application/x-www-form-urlencoded")]
        switch origin {
        case .same: headers.append(("origin", self.origin))
        case .none: break
        case .other(let other): headers.append(("origin", other))
        }
        return try await send(.POST, path, body: Self.urlencoded(all), headers: headers)
    }

    private func send(_ method: HTTPMethod, _ path: String, body: String?, headers: [(String, String)]) async throws -> Page {
        var request = HTTPClientRequest(url: origin + path)
        request.method = method
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let cookie { request.headers.add(name: "cookie", value: "\(PersonSessionsCookie.name)=\(cookie)") }
        if let body { request.body = .bytes(ByteBuffer(string: body)) }
        let response = try await Self.http.execute(request, timeout: .seconds(120))
        let bytes = try await response.body.collect(upTo: 32 << 20)
        let page = Page(status: Int(response.status.code), headers: response.headers.map { ($0.name.lowercased(), $0.value) },
                        body: String(buffer: bytes))
        state.withLock { state in
            if let set = page.sessionCookie {
                state.cookie = set.value.isEmpty || set.attributes["max-age"] == "0" ? nil : set.value
            }
            if let token = page.hidden("csrf") { state.csrf = token }
        }
        return page
    }

    /// `name=value&…`, each percent-encoded but for the unreserved characters.
    static func urlencoded(_ fields: [(String, String)]) -> String {
        var allowed = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)..<Unicode.Scalar(128)))
        allowed.insert(charactersIn: "-._~")
        func encode(_ text: String) -> String { text.addingPercentEncoding(withAllowedCharacters: allowed) ?? "" }
        return fields.map { "\(encode($0.0))=\(encode($0.1))" }.joined(separator: "&")
    }

    /// Signs in at `/signin` with `passphrase` (and `next`), expecting a redirect with a session cookie; then loads the
    /// page it leads to, so the client holds that page's CSRF token. Returns the sign-in answer.
    @discardableResult
    func signIn(_ passphrase: String = WebAppHarness.passphrase, next: String? = nil) async throws -> Page {
        let signedIn = try await post("/signin", [("passphrase", passphrase)] + (next.map { [("next", $0)] } ?? []), csrf: .none)
        #expect(signedIn.status == 303, "signing in: \(signedIn.status) \(signedIn.message ?? signedIn.body)")
        #expect(cookie != nil, "signing in set no session cookie")
        if signedIn.status == 303, let location = signedIn.location { _ = try await get(location) }
        return signedIn
    }

    /// Sets the person's first passphrase through the first-run page (`/setup?code=…`, as `health serve` prints it),
    /// which signs the person in; then loads the page it leads to. Returns the setup's answer.
    @discardableResult
    func setUp(_ passphrase: String = WebAppHarness.passphrase, code: String = DaemonHarness.setupCode) async throws -> Page {
        let form = try await get("/setup?code=\(code)")
        #expect(form.status == 200, "the first-run page: \(form.status)")
        #expect(form.hidden("code") == code)
        let done = try await post("/setup", [("code", form.hidden("code") ?? ""), ("passphrase", passphrase), ("repeat", passphrase)],
                                  csrf: .none)
        #expect(done.status == 303 && done.location == "/", "setting up: \(done.status) \(done.message ?? done.body)")
        if done.status == 303, let location = done.location { _ = try await get(location) }
        return done
    }
}

/// The web app's session cookie, as the tests name it.
enum PersonSessionsCookie {
    static let name = "health_session"
}

extension WebClient {
    /// An answer of the web app: status, headers (lowercased names), body; and what a test reads off the page.
    struct Page: Sendable {
        let status: Int
        let headers: [(String, String)]
        let body: String

        func header(_ name: String) -> String? { headers.first { $0.0 == name.lowercased() }?.1 }
        func headers(_ name: String) -> [String] { headers.filter { $0.0 == name.lowercased() }.map(\.1) }

        /// Where a redirect leads.
        var location: String? { header("location") }

        /// Whether this is one of the web app's HTML pages (not the API's JSON, say).
        var isHTML: Bool {
            header("content-type")?.hasPrefix("text/html") == true && body.hasPrefix("<!DOCTYPE html>")
        }

        /// The `health_session` cookie this answer sets: its value, and its attributes by lowercased name (a flag's
        /// value is "").
        var sessionCookie: (value: String, attributes: [String: String], line: String)? {
            guard let line = headers("set-cookie").last(where: { $0.hasPrefix(PersonSessionsCookie.name + "=") }) else { return nil }
            let parts = line.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            let value = String(parts[0].dropFirst(PersonSessionsCookie.name.count + 1))
            var attributes: [String: String] = [:]
            for part in parts.dropFirst() {
                let pair = part.split(separator: "=", maxSplits: 1)
                attributes[pair[0].lowercased()] = pair.count > 1 ? String(pair[1]) : ""
            }
            return (value, attributes, line)
        }

        /// The page's `<h1>`, its character references decoded.
        var heading: String? { Self.first(#"<h1>(.*?)</h1>"#, in: body).map(Self.unescape) }

        /// The text of the page's error message (`<p class="message" role="alert">`), decoded.
        var message: String? { Self.first(#"<p class="message" role="alert">(.*?)</p>"#, in: body).map { Self.unescape(Self.text($0)) } }

        /// The text of the page's notice (`<p class="notice" role="status">`), decoded.
        var notice: String? { Self.first(#"<p class="notice" role="status">(.*?)</p>"#, in: body).map { Self.unescape(Self.text($0)) } }

        /// Every `<input>` of the page: its attributes (values decoded; a flag such as `checked` is "").
        var inputs: [[String: String]] { Self.tags("input", in: body) }

        /// Every `<form>` of the page: its attributes.
        var forms: [[String: String]] { Self.tags("form", in: body) }

        /// The value of the first hidden field called `name`.
        func hidden(_ name: String) -> String? {
            inputs.first { $0["type"] == "hidden" && $0["name"] == name }?["value"]
        }

        /// The CSRF token the page's forms carry (nil on a signed-out page).
        var csrf: String? { hidden("csrf") }

        /// The value of the first field (of any type) called `name`.
        func field(_ name: String) -> String? { inputs.first { $0["name"] == name }?["value"] }

        /// The checkboxes called `name`, in page order: each one's value and whether it is checked.
        func checkboxes(_ name: String) -> [(value: String, checked: Bool)] {
            inputs.filter { $0["type"] == "checkbox" && $0["name"] == name }.map { ($0["value"] ?? "", $0["checked"] != nil) }
        }

        /// The values of the checked checkboxes called `name`.
        func checked(_ name: String) -> Set<String> { Set(checkboxes(name).filter(\.checked).map(\.value)) }

        /// The rows of the page's table bodies, each row's cells as text (tags dropped, references decoded).
        var rows: [[String]] {
            Self.all(#"<tr>(.*?)</tr>"#, in: Self.all(#"<tbody>(.*?)</tbody>"#, in: body).joined()).map { row in
                Self.all(#"<td[^>]*>(.*?)</td>"#, in: row).map { Self.unescape(Self.text($0)) }
            }
        }

        /// The `<title>`s of the chart's `<rect class="…">` marks (bars or bands), decoded.
        func chartMarks(_ kind: String) -> [String] {
            Self.all(#"<rect class="\#(kind)"[^>]*><title>(.*?)</title></rect>"#, in: body).map(Self.unescape)
        }

        // MARK: - Reading HTML

        /// The first capture of `pattern` (matched across lines).
        static func first(_ pattern: String, in text: String) -> String? { all(pattern, in: text).first }

        /// Every first capture of `pattern` (matched across lines).
        static func all(_ pattern: String, in text: String) -> [String] {
            guard let regex = try? Regex(pattern).dotMatchesNewlines() else { return [] }
            return text.matches(of: regex).compactMap { match in match.output.count > 1 ? match.output[1].substring.map(String.init) : nil }
        }

        /// The attributes of every `<tag …>`.
        static func tags(_ tag: String, in text: String) -> [[String: String]] {
            all("<\(tag)\\b([^>]*)>", in: text).map { attributes in
                var result: [String: String] = [:]
                for match in attributes.matches(of: /([A-Za-z][A-Za-z0-9_:-]*)(?:="([^"]*)")?/) {
                    result[String(match.output.1).lowercased()] = match.output.2.map { unescape(String($0)) } ?? ""
                }
                return result
            }
        }

        /// Markup without its tags.
        static func text(_ markup: String) -> String {
            markup.replacing(/<[^>]*>/, with: "").trimmingCharacters(in: .whitespacesAndNewlines)
        }

        /// The five character references `HTML.escape` writes, decoded.
        static func unescape(_ text: String) -> String {
            text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
                .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
                .replacingOccurrences(of: "&amp;", with: "&")
        }
    }
}

/// A daemon serving the web Health app on loopback, and the person's browser.
///
/// The store's passphrase is set as the first-run page would set it, but with scrypt's test cost (`.fast`): a debug
/// build derives the standard cost in seconds, and most tests sign in without caring how the passphrase came to be.
/// The first-run page itself is tested with its real cost (`WebClient.setUp`).
final class WebAppHarness: Sendable {
    static let passphrase = "correct horse battery staple"

    let daemon: DaemonHarness
    let browser: WebClient

    init(daemon: DaemonHarness, browser: WebClient) {
        self.daemon = daemon
        self.browser = browser
    }

    var port: Int { browser.port }

    /// A new browser on the same daemon (no cookie).
    func newBrowser() -> WebClient { WebClient(port: browser.port) }

    /// How the person's passphrase comes to be.
    enum Passphrase: Sendable {
        /// None yet: the web app is at its first run.
        case none
        /// Set (fast KDF) before the daemon starts.
        case set
        /// An encrypted store with this passphrase (fast KDF): the store's passphrase is the person's.
        case encrypted
    }

    /// Starts a daemon with a TCP listener on loopback, with the person's passphrase as `passphrase` says; with
    /// `signedIn`, the browser signs in. Stops the daemon however `body` ends.
    static func with(_ passphrase: Passphrase = .set, signedIn: Bool = true, sessionIdleTimeout: Duration? = nil,
                     deliveryRetry: DeliveryRetry = DeliveryRetry(), _ body: (WebAppHarness) async throws -> Void) async throws {
        let folder = try DaemonHarness.privateFolder()
        let store = folder.appendingPathComponent("store")
        switch passphrase {
        case .none: break
        case .set: try PersonPassphrase.set(Self.passphrase, in: store, scrypt: .fast)
        case .encrypted: try StoreEncryption.create(store, passphrase: Self.passphrase, scrypt: .fast)
        }
        let daemon: DaemonHarness
        do {
            daemon = try await DaemonHarness.start(tcp: true, folder: folder, deliveryRetry: deliveryRetry, sessionIdleTimeout: sessionIdleTimeout)
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
        let harness = WebAppHarness(daemon: daemon, browser: WebClient(port: try #require(daemon.tcpPort)))
        func stop() async {
            await daemon.stop()
            if passphrase == .encrypted { StoreEncryption.forget(store) }
        }
        do {
            if signedIn { try await harness.browser.signIn() }
            try await body(harness)
        } catch {
            await stop()
            throw error
        }
        await stop()
    }
}
