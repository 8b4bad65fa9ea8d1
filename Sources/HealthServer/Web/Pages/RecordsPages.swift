import Foundation
import HealthModel
import Hummingbird
import OpenHealthKit

/// Health records, as the Health app's "Health Records" shows them:
/// - `GET /records` — the clinical records by type (allergies, conditions, immunizations, lab results, medications,
///   procedures, vital signs…), each with its display name and date; and the verifiable records (SMART Health Cards)
///   with their issuer and whether their signature checked out against an issuer the person trusts;
/// - `GET /records/{uuid}` — one record with its FHIR resource (type, identifier, version, source, and the resource
///   itself).
struct RecordsPages {
    let app: HealthWebApp
    /// The largest file of records or cards accepted.
    static let maximumUpload = 32 << 20

    func add(to router: Router<BasicRequestContext>) {
        router.get("records") { request, _ in try list(done: request.uri.queryParameters.get("done").map { String($0) }) }
        router.post("records/import") { request, _ in
            let form = try await MultipartForm.read(request, limit: Self.maximumUpload)
            guard let file = form.file("file"), !file.data.isEmpty else { return try list(problem: "Choose a FHIR file (JSON) to add.", status: .badRequest) }
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("openhealthkit-records-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            defer { try? FileManager.default.removeItem(at: folder) }
            let name = (file.fileName ?? "records.json").replacingOccurrences(of: "/", with: "_")
            let url = folder.appendingPathComponent(name.hasSuffix(".json") ? name : name + ".json")
            try file.data.write(to: url)
            let provider = form.text("provider").flatMap { $0.isEmpty ? nil : $0 }
            let result: ClinicalRecordImport
            do {
                result = try app.person.importClinicalRecords(at: url, provider: provider ?? "Your provider")
            } catch let error as HKError {
                return try list(problem: "\(name): \(error.message).", status: .badRequest)
            }
            if result.added + result.updated + result.unchanged == 0 {
                let reason = result.rejected.first?.message ?? result.ignored.first?.message ?? "it holds no health record"
                return try list(problem: "Nothing was added from \(name): \(reason).", status: .badRequest)
            }
            return WebPage.redirect(to: "/records?done=\(result.added)-\(result.updated)-\(result.rejected.count)")
        }
        router.post("records/cards") { request, _ in
            let form = try await MultipartForm.read(request, limit: Self.maximumUpload)
            guard let file = form.file("file"), !file.data.isEmpty else { return try list(problem: "Choose a health card file to add.", status: .badRequest) }
            let result: HealthCardImport
            do {
                result = try app.person.importHealthCards(file.data, allowUnverified: form.text("unverified") == "yes")
            } catch let error as HKError {
                return try list(problem: "\(file.fileName ?? "The card"): \(error.message).", status: .badRequest)
            }
            if let refused = result.rejected.first, result.verified.isEmpty, result.unverified.isEmpty {
                return try list(problem: "The card was not added: \(refused.message).", status: .badRequest)
            }
            return WebPage.redirect(to: "/records?done=cards-\(result.verified.count + result.unverified.count)")
        }
        router.get("records/:uuid") { _, context in
            guard let text = context.parameters.get("uuid"), let uuid = UUID(uuidString: text) else {
                throw WebRefusal(.badRequest, "That is not a record's identifier.")
            }
            return try detail(uuid)
        }
    }

    private func list(done: String? = nil, problem: String? = nil, status: HTTPResponse.Status = .ok) throws -> Response {
        let calendar = try app.calendar()
        var style = Date.FormatStyle.dateTime.day().month(.abbreviated).year()
        style.timeZone = calendar.timeZone
        let records = try app.person.clinicalRecords()
        let byType = Dictionary(grouping: records, by: { $0.clinicalType.identifier })
        let sections: [HTML] = byType.keys.sorted { TypeNames.title($0) < TypeNames.title($1) }.map { identifier in
            let items: [HTML] = byType[identifier, default: []].sorted { $0.startDate > $1.startDate }.map { record in
                "<li><a href=\"/records/\(record.uuid.uuidString)\">\(record.displayName)</a> <span class=\"muted\">\(record.startDate.formatted(style))</span></li>"
            }
            return "<h2>\(TypeNames.title(identifier)) <span class=\"muted\">(\(items.count))</span></h2><ul>\(items)</ul>"
        }
        let cards: [HTML] = try app.person.verifiableClinicalRecords().map { entry in
            let record = entry.record
            return """
                <tr><td>\(record.itemNames.isEmpty ? record.recordTypes.joined(separator: ", ") : record.itemNames.joined(separator: ", "))</td>\
                <td>\(record.subject.fullName)</td><td>\(record.issuerIdentifier)</td><td>\(record.issuedDate.formatted(style))</td>\
                <td>\(entry.verified ? "<strong>verified</strong>" as HTML : "<span class=\"muted\">not verified</span>")</td></tr>
                """
        }
        let csrf = PersonSession.current?.csrfToken ?? ""
        var notice: String?
        if let done {
            let parts = done.split(separator: "-")
            if parts.first == "cards" { notice = "Added \(parts.last ?? "0") card(s)." }
            else if parts.count == 3 { notice = "Added \(parts[0]) record(s), updated \(parts[1])\(parts[2] == "0" ? "" : "; \(parts[2]) entr(ies) could not be read")." }
        }
        return WebPage.render("Health records", section: .records, status: status, """
            \(WebPage.notice(notice, error: false))\(WebPage.notice(problem))
            \(sections.isEmpty ? "<p class=\"muted\">No clinical records. Add your providers' FHIR files with <code>health records import</code>.</p>" as HTML : sections.joined())
            <h2>Verifiable records</h2>
            \(cards.isEmpty ? "<p class=\"muted\">No verifiable health cards. Add them with <code>health cards import</code>.</p>" as HTML : """
                <div class="table-wrap"><table><thead><tr><th scope="col">Record</th><th scope="col">Person</th><th scope="col">Issuer</th>\
                <th scope="col">Issued</th><th scope="col">Signature</th></tr></thead><tbody>\(cards)</tbody></table></div>
                """)
            <h2>Add records</h2>
            <form method="post" action="/records/import?csrf=\(csrf)" enctype="multipart/form-data" class="stack">
            <label for="records-file">FHIR resources from your provider (a JSON file: a resource or a Bundle)</label>
            <input id="records-file" name="file" type="file" accept=".json,application/json,application/fhir+json" required>
            <label for="records-provider">Provider</label>
            <input id="records-provider" name="provider" placeholder="Your provider's name">
            <button type="submit" class="secondary">Add records</button>
            </form>
            <form method="post" action="/records/cards?csrf=\(csrf)" enctype="multipart/form-data" class="stack">
            <label for="card-file">A SMART Health Card (<code>.smart-health-card</code>, or the <code>shc:/</code> text of its QR code)</label>
            <input id="card-file" name="file" type="file" required>
            <label><input type="checkbox" name="unverified" value="yes"> Keep it even if its issuer is not one I trust (it is marked not verified)</label>
            <button type="submit" class="secondary">Add card</button>
            </form>
            """)
    }

    private func detail(_ uuid: UUID) throws -> Response {
        guard let record = try app.person.clinicalRecords().first(where: { $0.uuid == uuid }) else {
            throw WebRefusal(.notFound, "No health record has that identifier.")
        }
        var style = Date.FormatStyle.dateTime.day().month(.wide).year()
        style.timeZone = try app.calendar().timeZone
        var figures: [HTML] = [
            "<dt>Type</dt><dd>\(TypeNames.title(record.clinicalType.identifier))</dd>",
            "<dt>Date</dt><dd>\(record.startDate.formatted(style))</dd>",
            "<dt>Source</dt><dd>\(record.sourceRevision.source.name)</dd>",
        ]
        var resource: HTML = "<p class=\"muted\">This record carries no FHIR resource.</p>"
        if let fhir = record.fhirResource {
            figures.append("<dt>FHIR resource</dt><dd>\(fhir.resourceType.rawValue) \(fhir.identifier) (FHIR \(fhir.fhirVersion.stringRepresentation))</dd>")
            if let url = fhir.sourceURL { figures.append("<dt>From</dt><dd>\(url.absoluteString)</dd>") }
            let pretty = (try? JSONSerialization.jsonObject(with: fhir.data))
                .flatMap { try? JSONSerialization.data(withJSONObject: $0, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]) }
                .flatMap { String(data: $0, encoding: .utf8) } ?? String(decoding: fhir.data, as: UTF8.self)
            resource = "<h2>The resource</h2><pre class=\"fhir\">\(pretty)</pre>"
        }
        return WebPage.render(record.displayName, section: .records, """
            <dl class="figures">\(figures)</dl>
            \(resource)
            <p><a href="/records">All health records</a></p>
            """)
    }
}
