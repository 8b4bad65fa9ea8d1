package import Foundation
package import HealthModel

/// What a verified (or knowingly unverified) card shows the person and apps: whom it is about, what it holds and
/// the date that matters, read from its FHIR Bundle. Record types are the card's `vc.type`s plus those its content
/// shows (our choice; cards since 2022 often declare only `#health-card`): `#immunization` for Immunization
/// resources, `#covid19` for a COVID-19 vaccine code, `#laboratory` for Observations and DiagnosticReports.
extension SmartHealthCard {
    /// The card as a `HKVerifiableClinicalRecord` imported at `imported`.
    package func record(imported: Date, uuid: UUID = UUID()) -> HKVerifiableClinicalRecord {
        let resources = ((try? JSONSerialization.jsonObject(with: bundle) as? [String: Any])?["entry"] as? [[String: Any]] ?? [])
            .compactMap { $0["resource"] as? [String: Any] }
        let patient = resources.first { $0["resourceType"] as? String == "Patient" }
        let name = patient.flatMap { FHIRResourceReader.humanName($0["name"]) } ?? ""
        var birth: DateComponents?
        if let text = patient?["birthDate"] as? String {
            let parts = text.split(separator: "-").compactMap { Int($0) }
            birth = DateComponents(year: parts.first, month: parts.count > 1 ? parts[1] : nil, day: parts.count > 2 ? parts[2] : nil)
        }
        var items: [String] = [], dates: [Date] = [], inferred: [String] = []
        for resource in resources {
            switch resource["resourceType"] as? String {
            case "Immunization":
                inferred.append(HKVerifiableClinicalRecordCredentialType.immunization.rawValue)
                let codes = ((resource["vaccineCode"] as? [String: Any])?["coding"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
                if codes.contains(where: { Self.cvxNames[$0] != nil }) { inferred.append(HKVerifiableClinicalRecordCredentialType.covid19.rawValue) }
                items.append(Self.itemName(resource["vaccineCode"], codeNames: Self.cvxNames, system: "CVX"))
                if let date = (resource["occurrenceDateTime"] as? String).flatMap(Self.fhirDate) { dates.append(date) }
            case "Observation", "DiagnosticReport":
                inferred.append(HKVerifiableClinicalRecordCredentialType.laboratory.rawValue)
                items.append(Self.itemName(resource["code"], codeNames: [:], system: "LOINC"))
                if let date = (resource["effectiveDateTime"] as? String).flatMap(Self.fhirDate) { dates.append(date) }
            default:
                break
            }
        }
        var recordTypes = types
        for type in inferred where !recordTypes.contains(type) { recordTypes.append(type) }
        return HKVerifiableClinicalRecord(
            recordTypes: recordTypes, issuerIdentifier: issuer, subject: HKVerifiableClinicalRecordSubject(fullName: name, dateOfBirthComponents: birth),
            issuedDate: issued, relevantDate: dates.max() ?? issued, expirationDate: expires, itemNames: items,
            sourceType: .smartHealthCard, dataRepresentation: Data(jws.utf8), imported: imported, uuid: uuid)
    }

    /// A CodeableConcept's text or display, else a known code's name, else "<system> <code>".
    static func itemName(_ value: Any?, codeNames: [String: String], system: String) -> String {
        let concept = value as? [String: Any] ?? [:]
        if let text = concept["text"] as? String, !text.isEmpty { return text }
        let codings = concept["coding"] as? [[String: Any]] ?? []
        if let display = codings.lazy.compactMap({ $0["display"] as? String }).first(where: { !$0.isEmpty }) { return display }
        guard let code = codings.lazy.compactMap({ $0["code"] as? String }).first else { return "Unnamed item" }
        return codeNames[code] ?? "\(system) \(code)"
    }

    /// COVID-19 vaccines by CVX code (names after CDC's CVX table), the codes QR-sized cards carry without a display.
    static let cvxNames: [String: String] = [
        "207": "COVID-19, mRNA, LNP-S, PF, 100 mcg/0.5 mL dose (Moderna)",
        "208": "COVID-19, mRNA, LNP-S, PF, 30 mcg/0.3 mL dose (Pfizer-BioNTech)",
        "210": "COVID-19 vaccine, vector-nr, rS-ChAdOx1, PF, 0.5 mL (AstraZeneca)",
        "211": "COVID-19 vaccine, Subunit, rS-nanoparticle+Matrix-M1 Adjuvant, PF, 0.5 mL (Novavax)",
        "212": "COVID-19 vaccine, vector-nr, rS-Ad26, PF, 0.5 mL (Janssen)",
        "213": "SARS-COV-2 (COVID-19) vaccine, UNSPECIFIED",
        "217": "COVID-19, mRNA, LNP-S, PF, 30 mcg/0.3 mL dose, tris-sucrose (Pfizer-BioNTech)",
        "218": "COVID-19, mRNA, LNP-S, PF, 10 mcg/0.2 mL dose, tris-sucrose (Pfizer-BioNTech)",
        "219": "COVID-19, mRNA, LNP-S, PF, 3 mcg/0.2 mL dose, tris-sucrose (Pfizer-BioNTech)",
        "221": "COVID-19, mRNA, LNP-S, PF, 50 mcg/0.5 mL dose (Moderna)",
        "228": "COVID-19, mRNA, LNP-S, PF, 25 mcg/0.25 mL dose (Moderna)",
        "229": "COVID-19, mRNA, LNP-S, bivalent, PF, 50 mcg/0.5 mL (Moderna)",
        "230": "COVID-19, mRNA, LNP-S, bivalent, PF, 10 mcg/0.2 mL (Moderna)",
        "300": "COVID-19, mRNA, LNP-S, bivalent, PF, 30 mcg/0.3 mL (Pfizer-BioNTech)",
        "301": "COVID-19, mRNA, LNP-S, bivalent, PF, 10 mcg/0.2 mL (Pfizer-BioNTech)",
    ]

    /// A FHIR date or dateTime (`2021-01-29`, `2021-01-29T10:00:00Z`), as the start of its day in UTC when no time.
    static func fhirDate(_ text: String) -> Date? {
        if let date = try? Date(text, strategy: .iso8601) { return date }
        let parts = text.split(separator: "-").compactMap { Int($0) }
        guard let year = parts.first else { return nil }
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        return utc.date(from: DateComponents(year: year, month: parts.count > 1 ? parts[1] : 1, day: parts.count > 2 ? parts[2] : 1))
    }
}
