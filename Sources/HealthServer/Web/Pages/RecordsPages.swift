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

    func add(to router: Router<BasicRequestContext>) {
        router.get("records") { _, _ in try list() }
        router.get("records/:uuid") { _, context in
            guard let text = context.parameters.get("uuid"), let uuid = UUID(uuidString: text) else {
                throw WebRefusal(.badRequest, "That is not a record's identifier.")
            }
            return try detail(uuid)
        }
    }

    private func list() throws -> Response {
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
        return WebPage.render("Health records", section: .records, """
            \(sections.isEmpty ? "<p class=\"muted\">No clinical records. Add your providers' FHIR files with <code>health records import</code>.</p>" as HTML : sections.joined())
            <h2>Verifiable records</h2>
            \(cards.isEmpty ? "<p class=\"muted\">No verifiable health cards. Add them with <code>health cards import</code>.</p>" as HTML : """
                <div class="table-wrap"><table><thead><tr><th scope="col">Record</th><th scope="col">Person</th><th scope="col">Issuer</th>\
                <th scope="col">Issued</th><th scope="col">Signature</th></tr></thead><tbody>\(cards)</tbody></table></div>
                """)
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
