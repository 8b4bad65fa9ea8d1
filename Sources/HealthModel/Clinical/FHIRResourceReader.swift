import Foundation

/// Reads one FHIR resource (JSON object) the way HealthKit's health-records pipeline does: which clinical type it
/// becomes — or why it becomes none — and the name the Health app shows for it. Rules:
/// `reference/clinical-records.md` §1.3 and §1.5.
///
/// - AllergyIntolerance → allergy; Condition → condition; Coverage → coverage; DiagnosticReport and DocumentReference
///   → clinical note; Immunization → immunization; MedicationDispense / Order / Request / Statement → medication;
///   Procedure → procedure; Observation → lab result (`laboratory`) or vital sign (`vital-signs`) by its category
///   coding in the release's exact system URL.
/// - Our choices where Apple's rule is not public: an Observation with both supported categories (in different
///   codings) is a vital sign (HealthKit's preference order appears to be vital-signs first); every DiagnosticReport
///   is a clinical note (HealthKit keeps lab-panel reports out by a private ruleset — the issue asks for all); a
///   resource whose status or verification status is `entered-in-error` is ignored, as HealthKit skips them.
/// - Patient is kept (it names whose records these are) but is no clinical record. Other FHIR resource types
///   (Encounter, Claim, CarePlan…) are ignored with that reason; a `resourceType` that is no FHIR type is an error.
package enum FHIRResourceReader {
    /// What a resource becomes.
    package enum Outcome: Equatable, Sendable {
        case record(HKClinicalTypeIdentifier, displayName: String)
        case patient(name: String)
        /// A valid resource that makes no record, and why.
        case ignored(String)
    }

    package static let dstu2CategorySystem = "http://hl7.org/fhir/observation-category"
    package static let r4CategorySystem = "http://terminology.hl7.org/CodeSystem/observation-category"

    /// The resource's `resourceType` and `id`, or `errorInvalidArgument` naming what is missing.
    package static func identity(of resource: [String: Any]) throws -> (type: String, id: String) {
        guard let type = resource["resourceType"] as? String, !type.isEmpty else {
            throw HKError.invalidArgument("the resource has no resourceType")
        }
        guard let id = resource["id"] as? String, !id.isEmpty else {
            throw HKError.invalidArgument("the \(type) resource has no id")
        }
        return (type, id)
    }

    /// Classifies `resource` as a resource of `release`. A `resourceType` that is no FHIR resource type, or a
    /// resource without an id, is `errorInvalidArgument`.
    package static func classify(_ resource: [String: Any], release: HKFHIRRelease) throws -> Outcome {
        let (type, _) = try identity(of: resource)
        guard FHIRResourceNames.all.contains(type) else {
            throw HKError.invalidArgument("\"\(type)\" is not a FHIR resource type")
        }
        if type == "Patient" { return .patient(name: humanName(resource["name"]) ?? "Patient") }
        if isEnteredInError(resource) { return .ignored("\(type) is marked entered-in-error") }
        let clinical: HKClinicalTypeIdentifier
        switch HKFHIRResourceType(rawValue: type) {
        case .allergyIntolerance: clinical = .allergyRecord
        case .condition: clinical = .conditionRecord
        case .coverage: clinical = .coverageRecord
        case .diagnosticReport, .documentReference: clinical = .clinicalNoteRecord
        case .immunization: clinical = .immunizationRecord
        case .medicationDispense, .medicationOrder, .medicationRequest, .medicationStatement: clinical = .medicationRecord
        case .procedure: clinical = .procedureRecord
        case .observation:
            switch observationCategory(resource, release: release) {
            case .success(let category): clinical = category
            case .failure(let noRecord): return .ignored(noRecord.reason)
            }
        default:
            return .ignored("HealthKit has no clinical record type for \(type) resources")
        }
        return .record(clinical, displayName: displayName(resource, type: HKFHIRResourceType(rawValue: type), clinical: clinical))
    }

    /// The release a resource's shape shows, when it shows one: resource types that exist in one release only, and
    /// fields whose form changed between DSTU2 and R4. `nil` when the resource reads the same in both.
    package static func detectRelease(_ resource: [String: Any]) -> HKFHIRRelease? {
        let type = resource["resourceType"] as? String ?? ""
        if FHIRResourceNames.dstu2Only.contains(type) { return .dstu2 }
        if FHIRResourceNames.r4Only.contains(type) { return .r4 }
        func has(_ key: String) -> Bool { resource[key] != nil }
        switch type {
        case "Observation":
            if resource["category"] is [Any] { return .r4 }
            if resource["category"] is [String: Any] { return .dstu2 }
        case "AllergyIntolerance":
            if has("substance") { return .dstu2 }
            if has("code") || resource["clinicalStatus"] is [String: Any] { return .r4 }
        case "Condition":
            if resource["clinicalStatus"] is String || resource["verificationStatus"] is String || has("patient") { return .dstu2 }
            if resource["clinicalStatus"] is [String: Any] || has("subject") { return .r4 }
        case "Immunization":
            if has("occurrenceDateTime") || has("occurrenceString") { return .r4 }
            if has("wasNotGiven") || has("date") { return .dstu2 }
        case "MedicationStatement", "MedicationDispense":
            if has("patient") { return .dstu2 }
            if has("subject") { return .r4 }
        case "Coverage":
            if has("beneficiary") || has("payor") { return .r4 }
            if has("issuer") || has("plan") || has("subscriberId") { return .dstu2 }
        case "DocumentReference":
            if has("indexed") { return .dstu2 }
            if has("date") { return .r4 }
        default:
            break
        }
        return nil
    }

    // MARK: - Observation categories

    private enum Category { case laboratory, vitalSigns }

    /// The clinical type an Observation's category gives in `release`, or why it gives none.
    private static func observationCategory(_ resource: [String: Any], release: HKFHIRRelease) -> Result<HKClinicalTypeIdentifier, NoRecord> {
        let system = release == .dstu2 ? dstu2CategorySystem : r4CategorySystem
        // DSTU2: one CodeableConcept; R4: an array of them.
        let concepts: [[String: Any]]
        if release == .dstu2 {
            concepts = (resource["category"] as? [String: Any]).map { [$0] } ?? []
        } else {
            concepts = resource["category"] as? [[String: Any]] ?? []
        }
        var laboratory = false, vitalSigns = false, unsupported: [String] = []
        for concept in concepts {
            var supportedHere = 0
            for coding in concept["coding"] as? [[String: Any]] ?? [] where coding["system"] as? String == system {
                switch coding["code"] as? String {
                case "laboratory": laboratory = true; supportedHere += 1
                case "vital-signs": vitalSigns = true; supportedHere += 1
                case let code?: unsupported.append(code)
                case nil: break
                }
            }
            if release != .dstu2, supportedHere > 1 {
                return .failure(NoRecord("More than 1 supported Observation category in same R4 coding"))
            }
        }
        if vitalSigns { return .success(.vitalSignRecord) }
        if laboratory { return .success(.labResultRecord) }
        if !unsupported.isEmpty { return .failure(NoRecord("unsupported Observation categories: \(unsupported.joined(separator: ", "))")) }
        return .failure(NoRecord("the Observation has no category coded in \(system) (laboratory or vital-signs)"))
    }

    /// Why a valid resource makes no record.
    private struct NoRecord: Error {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }

    private static func isEnteredInError(_ resource: [String: Any]) -> Bool {
        if resource["status"] as? String == "entered-in-error" { return true }
        if resource["verificationStatus"] as? String == "entered-in-error" { return true }
        return codes(resource["verificationStatus"]).contains("entered-in-error")
    }

    // MARK: - Display names

    /// The name the Health app shows: the resource's code text or first coding display (the medication, the
    /// vaccine, the substance…), falling back to a generic name for the type.
    private static func displayName(_ resource: [String: Any], type: HKFHIRResourceType, clinical: HKClinicalTypeIdentifier) -> String {
        let candidates: [Any?]
        switch type {
        case .allergyIntolerance: candidates = [resource["code"], resource["substance"]]
        case .immunization: candidates = [resource["vaccineCode"]]
        case .medicationDispense, .medicationOrder, .medicationRequest, .medicationStatement:
            candidates = [resource["medicationCodeableConcept"], (resource["medicationReference"] as? [String: Any])?["display"],
                          (resource["contained"] as? [[String: Any]])?.first(where: { $0["resourceType"] as? String == "Medication" })?["code"]]
        case .coverage:
            candidates = [resource["type"], (resource["payor"] as? [[String: Any]])?.first?["display"], resource["plan"],
                          (resource["issuer"] as? [String: Any])?["display"]]
        case .documentReference: candidates = [resource["type"], resource["description"]]
        default: candidates = [resource["code"]]
        }
        for candidate in candidates {
            if let text = candidate as? String, !text.isEmpty { return text }
            if let concept = candidate as? [String: Any], let text = conceptText(concept) { return text }
        }
        return fallbackNames[clinical] ?? type.rawValue
    }

    private static let fallbackNames: [HKClinicalTypeIdentifier: String] = [
        .allergyRecord: "Allergy", .conditionRecord: "Condition", .coverageRecord: "Insurance", .clinicalNoteRecord: "Clinical Note",
        .immunizationRecord: "Immunization", .medicationRecord: "Medication", .procedureRecord: "Procedure",
        .labResultRecord: "Lab Result", .vitalSignRecord: "Vital Sign",
    ]

    /// A CodeableConcept's text, or the display of its first coding that has one.
    private static func conceptText(_ concept: [String: Any]) -> String? {
        if let text = concept["text"] as? String, !text.isEmpty { return text }
        for coding in concept["coding"] as? [[String: Any]] ?? [] {
            if let display = coding["display"] as? String, !display.isEmpty { return display }
        }
        return nil
    }

    /// The codes of a CodeableConcept (or nothing).
    private static func codes(_ value: Any?) -> [String] {
        ((value as? [String: Any])?["coding"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
    }

    /// A HumanName list's first name as people read it: its text, or prefix, given and family names.
    package static func humanName(_ value: Any?) -> String? {
        guard let names = value as? [[String: Any]], let name = names.first(where: { $0["use"] as? String == "official" }) ?? names.first else {
            return nil
        }
        if let text = name["text"] as? String, !text.isEmpty { return text }
        func strings(_ key: String) -> [String] {
            if let list = name[key] as? [String] { return list }
            if let one = name[key] as? String { return [one] }
            return []
        }
        let parts = strings("prefix") + strings("given") + strings("family") + strings("suffix")
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }
}
