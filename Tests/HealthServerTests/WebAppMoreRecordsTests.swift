import AsyncHTTPClient
import Foundation
@testable import HealthServer
import NIOCore
import NIOHTTP1
import OpenHealthKit
import Testing

/// What the page tests upload and download beyond `WebClient`'s forms: any body (a file form, a raw export, a stream)
/// with the browser's session cookie and the page's own `Origin`, and answers kept as bytes (an export's zip).
enum WebAppMoreHTTP {
    /// Redirects are the test's to read, never followed; a long read timeout, for an import on a loaded machine.
    static let client = HTTPClient(eventLoopGroupProvider: .singleton,
                                   configuration: .init(redirectConfiguration: .disallow,
                                                        timeout: .init(connect: .seconds(10), read: .seconds(600))))

    struct Answer: Sendable {
        let status: Int
        let headers: [(String, String)]
        let data: Data

        func header(_ name: String) -> String? { headers.first { $0.0 == name.lowercased() }?.1 }
        var text: String { String(decoding: data, as: UTF8.self) }
        /// The answer as a page, to read its message, notice, rows.
        var page: WebClient.Page { WebClient.Page(status: status, headers: headers, body: text) }
    }

    /// Sends `body` to `path` as `browser` would (its session cookie; `Origin` on a post).
    static func send(_ browser: WebClient, _ method: HTTPMethod = .POST, _ path: String, headers: [(String, String)] = [],
                     body: HTTPClientRequest.Body? = nil) async throws -> Answer {
        var request = HTTPClientRequest(url: browser.origin + path)
        request.method = method
        if method == .POST, !headers.contains(where: { $0.0.lowercased() == "origin" }) { request.headers.add(name: "origin", value: browser.origin) }
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let cookie = browser.cookie { request.headers.add(name: "cookie", value: "\(PersonSessionsCookie.name)=\(cookie)") }
        if let body { request.body = body }
        let response = try await client.execute(request, timeout: .seconds(600))
        let bytes = try await response.body.collect(upTo: 256 << 20)
        return Answer(status: Int(response.status.code), headers: response.headers.map { ($0.name.lowercased(), $0.value) },
                      data: Data(bytes.readableBytesView))
    }

    /// Posts `form` (multipart) to `path`.
    static func upload(_ browser: WebClient, _ path: String, _ form: WebAppMoreMultipart) async throws -> Answer {
        try await send(browser, .POST, path, headers: [("content-type", form.contentType)], body: .bytes(ByteBuffer(bytes: form.data)))
    }
}

/// A `multipart/form-data` body as a browser sends a form with a file: each part's headers, its bytes, the boundary
/// between them, the closing boundary.
struct WebAppMoreMultipart: Sendable {
    let boundary = "----WebAppMoreBoundary\(UUID().uuidString.replacingOccurrences(of: "-", with: ""))"
    private var parts = Data()

    var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    mutating func file(_ name: String, fileName: String, type: String = "application/octet-stream", _ contents: Data) {
        parts.append(Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"; filename=\"\(fileName)\"\r\nContent-Type: \(type)\r\n\r\n".utf8))
        parts.append(contents)
        parts.append(Data("\r\n".utf8))
    }

    mutating func field(_ name: String, _ value: String) {
        parts.append(Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8))
    }

    var data: Data { parts + Data("--\(boundary)--\r\n".utf8) }
}

/// The repository's test fixtures.
enum WebAppMoreFixtures {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")
    static let fhir = root.appendingPathComponent("fhir")
    static let cards = fhir.appendingPathComponent("shc")
    static let exports = root.appendingPathComponent("apple-health-export")
    /// The small export bundled with `health` (9,051 samples).
    static let sampleExport = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/HealthCLI/Resources/sample-export.zip")
}

extension WebClient.Page {
    /// The `csrf` in the address of the form posting to `path` (a file form carries its token there).
    func uploadFormToken(_ path: String) -> String? {
        guard let action = forms.first(where: { $0["action"]?.hasPrefix(path + "?csrf=") == true })?["action"] else { return nil }
        return String(action.dropFirst(path.count + "?csrf=".count))
    }
}

private let fever = WebAppMoreFixtures.fhir.appendingPathComponent("r4/condition-example-f201-fever.json")
private let card = WebAppMoreFixtures.cards.appendingPathComponent("examples/example-00-e-file.smart-health-card")
private let expiredUpload = "This upload had expired or was not sent from this site's page, so nothing was added. Reload the page and try again."

/// Health records (`/records`): FHIR files and health cards uploaded from the page, listed by type, and one record's
/// resource.
@Suite("The web app: health records")
struct WebAppMoreRecordsTests {
    /// A form with `file` (and a provider) as the records page's first form sends it.
    private func recordsForm(_ contents: Data, fileName: String = "fever.json", provider: String? = "City Clinic") -> WebAppMoreMultipart {
        var form = WebAppMoreMultipart()
        form.file("file", fileName: fileName, type: "application/json", contents)
        if let provider { form.field("provider", provider) }
        return form
    }

    @Test func aFHIRFileUploadedFromThePageIsListedByTypeAndItsResourceShownEscaped() async throws {
        try await WebAppHarness.with { web in
            let empty = try await web.browser.get("/records")
            #expect(empty.status == 200 && empty.heading == "Health records")
            #expect(empty.body.contains("No clinical records.") && empty.body.contains("No verifiable health cards."))
            let token = try #require(empty.uploadFormToken("/records/import"), "the file form carries its token in its address")
            #expect(token == empty.csrf && empty.uploadFormToken("/records/cards") == token)
            #expect(empty.forms.first { $0["action"]?.hasPrefix("/records/import") == true }?["enctype"] == "multipart/form-data")

            let added = try await WebAppMoreHTTP.upload(web.browser, "/records/import?csrf=\(token)", recordsForm(try Data(contentsOf: fever)))
            #expect(added.status == 303 && added.header("location") == "/records?done=1-0-0", "\(added.status) \(added.page.message ?? added.text)")
            let record = try #require(try web.daemon.person().clinicalRecords().first)
            #expect(try web.daemon.person().clinicalRecords().count == 1)
            #expect(record.clinicalType.identifier == HKClinicalTypeIdentifier.conditionRecord.rawValue)
            #expect(record.sourceRevision.source.name == "City Clinic", "the provider named in the form")

            let list = try await web.browser.get("/records?done=1-0-0")
            #expect(list.notice == "Added 1 record(s), updated 0.", "\(list.notice ?? "")")
            #expect(list.body.contains("<h2>Condition Record <span class=\"muted\">(1)</span></h2>"), "\(list.body)")
            #expect(list.body.contains("<li><a href=\"/records/\(record.uuid.uuidString)\">\(HTML.escape(record.displayName))</a>"), "\(list.body)")

            let detail = try await web.browser.get("/records/\(record.uuid.uuidString)")
            #expect(detail.status == 200 && detail.heading == record.displayName, "\(detail.status) \(detail.heading ?? "")")
            #expect(detail.body.contains("<dt>Type</dt><dd>Condition Record</dd>") && detail.body.contains("<dt>Source</dt><dd>City Clinic</dd>"))
            #expect(detail.body.contains("<dd>Condition f201 (FHIR "), "\(detail.body)")
            let pre = try #require(WebClient.Page.first(#"<pre class="fhir">(.*?)</pre>"#, in: detail.body))
            // The resource's narrative is XHTML: on the page it is text, never markup.
            #expect(!pre.contains("<") && !pre.contains(">") && pre.contains("&lt;div xmlns=") && !detail.body.contains("<div xmlns="))
            let text = WebClient.Page.unescape(pre)
            #expect(text.contains("\n  \"") && text.split(separator: "\n").count > 50, "pretty-printed")
            let shown = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? NSDictionary)
            let original = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: fever)) as? NSDictionary)
            #expect(shown == original, "the resource, whole")
            // Keys sorted: clinicalStatus before id (the file has id first).
            let clinical = try #require(text.range(of: "\"clinicalStatus\"")), id = try #require(text.range(of: "\"id\" : \"f201\""))
            #expect(clinical.lowerBound < id.lowerBound)
            #expect(text.contains("\"div\" : \"<div xmlns=\\\"http://www.w3.org/1999/xhtml\\\">"), "slashes unescaped")
        }
    }

    @Test func aFileThatIsNotFHIRIsA400WithAMessageAndAddsNothing() async throws {
        try await WebAppHarness.with { web in
            let token = try #require(try await web.browser.get("/records").uploadFormToken("/records/import"))
            let cases: [(name: String, contents: String)] = [
                ("notes.txt", "These are my notes, not a FHIR resource."),
                ("other.json", #"{"hello":"world"}"#),
                ("patient.json", String(decoding: try Data(contentsOf: WebAppMoreFixtures.fhir.appendingPathComponent("r4/patient-example.json")), as: UTF8.self)),
            ]
            for (name, contents) in cases {
                let refused = try await WebAppMoreHTTP.upload(web.browser, "/records/import?csrf=\(token)", recordsForm(Data(contents.utf8), fileName: name))
                #expect(refused.status == 400, "\(name): \(refused.status)")
                let message = try #require(refused.page.message, "\(name): \(refused.text)")
                #expect(message.contains(name) && message.hasSuffix("."), "\(name): \(message)")
                #expect(refused.page.heading == "Health records" && refused.page.uploadFormToken("/records/import") == token, "\(name): the page again")
            }
            // No file at all.
            var noFile = WebAppMoreMultipart()
            noFile.field("provider", "City Clinic")
            let none = try await WebAppMoreHTTP.upload(web.browser, "/records/import?csrf=\(token)", noFile)
            #expect(none.status == 400 && none.page.message == "Choose a FHIR file (JSON) to add.", "\(none.status) \(none.page.message ?? "")")
            #expect(try web.daemon.person().clinicalRecords().isEmpty)
            #expect(try await web.browser.get("/records").body.contains("No clinical records."))
        }
    }

    @Test func anUploadWithoutItsTokenOrFromAnotherSiteIsRefusedAndAddsNothing() async throws {
        try await WebAppHarness.with { web in
            let page = try await web.browser.get("/records")
            let token = try #require(page.uploadFormToken("/records/import"))
            let other = web.newBrowser()
            try await other.signIn()
            let othersToken = try #require(other.csrf)
            let contents = try Data(contentsOf: fever)
            for path in ["/records/import", "/records/import?csrf=", "/records/import?csrf=forged", "/records/import?csrf=\(othersToken)",
                         "/records/cards?csrf=forged", "/records/cards"] {
                let refused = try await WebAppMoreHTTP.upload(web.browser, path, recordsForm(contents))
                #expect(refused.status == 403, "\(path): \(refused.status)")
                #expect(refused.page.message == expiredUpload, "\(path): \(refused.page.message ?? refused.text)")
            }
            // The right token from another origin.
            let foreign = try await WebAppMoreHTTP.send(web.browser, .POST, "/records/import?csrf=\(token)",
                                                        headers: [("content-type", recordsForm(contents).contentType), ("origin", "https://evil.example")],
                                                        body: .bytes(ByteBuffer(bytes: recordsForm(contents).data)))
            #expect(foreign.status == 403, "\(foreign.status)")
            // Signed out: the upload is sent to sign in, not taken.
            let signedOut = try await WebAppMoreHTTP.upload(web.newBrowser(), "/records/import?csrf=\(token)", recordsForm(contents))
            #expect(signedOut.status == 303 && signedOut.header("location")?.hasPrefix("/signin") == true, "\(signedOut.status)")
            #expect(try web.daemon.person().clinicalRecords().isEmpty)
            #expect(try web.daemon.person().verifiableClinicalRecords().isEmpty)
            // The same upload with the token is taken: the refusals were the token's.
            let taken = try await WebAppMoreHTTP.upload(web.browser, "/records/import?csrf=\(token)", recordsForm(contents))
            #expect(taken.status == 303, "\(taken.status) \(taken.page.message ?? "")")
            #expect(try web.daemon.person().clinicalRecords().count == 1)
        }
    }

    @Test func anUnknownOrMalformedRecordIsAPageSayingSo() async throws {
        try await WebAppHarness.with { web in
            let unknown = try await web.browser.get("/records/\(UUID().uuidString)")
            #expect(unknown.status == 404 && unknown.isHTML && unknown.message == "No health record has that identifier.", "\(unknown.status)")
            let malformed = try await web.browser.get("/records/not-a-uuid")
            #expect(malformed.status == 400 && malformed.message == "That is not a record's identifier.", "\(malformed.status)")
        }
    }

    @Test func aHealthCardFromAnUntrustedIssuerIsRefusedUnlessKeptUnverified() async throws {
        try await WebAppHarness.with { web in
            let token = try #require(try await web.browser.get("/records").uploadFormToken("/records/cards"))
            let contents = try Data(contentsOf: card)
            var trusting = WebAppMoreMultipart()
            trusting.file("file", fileName: "card.smart-health-card", contents)
            let refused = try await WebAppMoreHTTP.upload(web.browser, "/records/cards?csrf=\(token)", trusting)
            #expect(refused.status == 400, "\(refused.status)")
            let message = try #require(refused.page.message, "\(refused.text)")
            #expect(message.hasPrefix("The card was not added: ") && message.hasSuffix("."), "\(message)")
            #expect(try web.daemon.person().verifiableClinicalRecords().isEmpty)
            #expect(refused.page.body.contains("No verifiable health cards."))

            var keeping = WebAppMoreMultipart()
            keeping.file("file", fileName: "card.smart-health-card", contents)
            keeping.field("unverified", "yes")
            let kept = try await WebAppMoreHTTP.upload(web.browser, "/records/cards?csrf=\(token)", keeping)
            #expect(kept.status == 303 && kept.header("location") == "/records?done=cards-1", "\(kept.status) \(kept.page.message ?? "")")
            let stored = try web.daemon.person().verifiableClinicalRecords()
            #expect(stored.count == 1 && stored.first?.verified == false)
            let list = try await web.browser.get("/records?done=cards-1")
            #expect(list.notice == "Added 1 card(s).")
            let row = try #require(list.rows.first, "\(list.body)")
            #expect(list.rows.count == 1 && row.count == 5, "\(list.rows)")
            #expect(row[1] == "John B. Anyperson" && row[2] == "https://spec.smarthealth.cards/examples/issuer" && row[4] == "not verified", "\(row)")
            #expect(row[0] == (stored.first?.record.itemNames ?? []).joined(separator: ", "), "\(row)")
        }
    }

    @Test func aHealthCardFromATrustedIssuerIsShownVerified() async throws {
        try await WebAppHarness.with { web in
            let issuer = WebAppMoreFixtures.cards.appendingPathComponent("issuer/.well-known")
            let kid = "3Kfdg-XwP-7gXyywtUfUADwBumDOPKMQx-iELL11W9s"
            try web.daemon.person().trustIssuer("https://spec.smarthealth.cards/examples/issuer",
                                                keys: Data(contentsOf: issuer.appendingPathComponent("jwks.json")),
                                                revocationLists: [kid: Data(contentsOf: issuer.appendingPathComponent("crl/\(kid).json"))])
            let token = try #require(try await web.browser.get("/records").uploadFormToken("/records/cards"))
            var form = WebAppMoreMultipart()
            form.file("file", fileName: "card.smart-health-card", try Data(contentsOf: card))
            let added = try await WebAppMoreHTTP.upload(web.browser, "/records/cards?csrf=\(token)", form)
            #expect(added.status == 303 && added.header("location") == "/records?done=cards-1", "\(added.status) \(added.page.message ?? "")")
            #expect(try web.daemon.person().verifiableClinicalRecords().map(\.verified) == [true])
            let list = try await web.browser.get("/records")
            #expect(list.rows.map { $0.last } == ["verified"], "\(list.rows)")
        }
    }
}
