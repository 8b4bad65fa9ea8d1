import Foundation
import Hummingbird
import NIOCore

/// The web Health app's pages: one layout (the sections, the person's sign-out), and the answers routes give.
enum WebPage {
    /// The app's sections, in the order of its navigation.
    enum Section: String, CaseIterable, Sendable {
        case summary, requests, records, sources, me, accessLog, deliveries

        var title: String {
            switch self {
            case .summary: "Summary"
            case .requests: "Requests"
            case .sources: "Sources"
            case .records: "Records"
            case .me: "Me"
            case .accessLog: "Access log"
            case .deliveries: "Deliveries"
            }
        }

        var path: String {
            switch self {
            case .summary: "/"
            case .requests: "/requests"
            case .sources: "/sources"
            case .records: "/records"
            case .me: "/me"
            case .accessLog: "/access-log"
            case .deliveries: "/deliveries"
            }
        }
    }

    /// A page in the layout: its title, the section it belongs to (highlighted), and its main content.
    static func render(_ title: String, section: Section? = nil, status: HTTPResponse.Status = .ok, refreshSeconds: Int? = nil,
                       _ main: HTML) -> Response {
        let session = PersonSession.current
        let navigation: HTML = session == nil ? .empty : """
            <nav aria-label="Sections"><ul>\(Section.allCases.map { item -> HTML in
                item == section ? "<li><a href=\"\(item.path)\" aria-current=\"page\">\(item.title)</a></li>"
                                : "<li><a href=\"\(item.path)\">\(item.title)</a></li>"
            })</ul>
            <form method="post" action="/signout" class="signout">\(csrfField())<button type="submit">Sign out</button></form></nav>
            """
        let page: HTML = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(title) — Health</title>
            \(refreshSeconds.map { "<meta http-equiv=\"refresh\" content=\"\($0)\">" as HTML } ?? .empty)
            <link rel="stylesheet" href="/static/health.css">
            <script src="/static/health.js" defer></script>
            </head>
            <body>
            <a class="skip" href="#main">Skip to the content</a>
            <header><a class="brand" href="/">Health</a>\(navigation)</header>
            <main id="main">
            <h1>\(title)</h1>
            \(main)
            </main>
            </body>
            </html>

            """
        return Response(status: status, headers: [.contentType: "text/html; charset=utf-8"],
                        body: .init(byteBuffer: ByteBuffer(string: page.markup)))
    }

    /// A page that only says something (an error, a refusal).
    static func message(title: String, text: String, status: HTTPResponse.Status) -> Response {
        render(title, status: status, "<p class=\"message\" role=\"alert\">\(text)</p><p><a href=\"/\">Back to the Summary</a></p>")
    }

    /// The hidden field every form of a signed-in page carries.
    static func csrfField() -> HTML {
        guard let session = PersonSession.current else { return .empty }
        return "<input type=\"hidden\" name=\"csrf\" value=\"\(session.csrfToken)\">"
    }

    /// 303 See Other: after a form, the browser fetches `location` (so reloading does not post again).
    static func redirect(to location: String) -> Response {
        Response(status: .seeOther, headers: [.location: location])
    }

    /// A notice above a form (what went wrong with it, or what was done).
    static func notice(_ text: String?, error: Bool = true) -> HTML {
        guard let text else { return .empty }
        return error ? "<p class=\"message\" role=\"alert\">\(text)</p>" : "<p class=\"notice\" role=\"status\">\(text)</p>"
    }

    /// A local path to go back to after signing in: only a path on this site (never `//host` or a URL).
    static func localPath(_ candidate: String?) -> String {
        // No control character anywhere: browsers drop tabs and newlines from a URL, so "/<tab>/evil.example" would be
        // read as "//evil.example", another site.
        guard let candidate, candidate.hasPrefix("/"), !candidate.hasPrefix("//"), !candidate.contains("\\"),
              candidate.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }) else { return "/" }
        return candidate
    }
}
