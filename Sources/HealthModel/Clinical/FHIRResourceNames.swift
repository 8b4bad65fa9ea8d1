/// The names of FHIR's resource types in R4 (4.0.1) and DSTU2 (1.0.2), to tell a resource HealthKit ignores
/// (Encounter, Claim…) from a `resourceType` that is no FHIR type at all.
enum FHIRResourceNames {
    static let both: Set<String> = [
        "Account", "AllergyIntolerance", "Appointment", "AppointmentResponse", "AuditEvent", "Basic", "Binary", "BodySite",
        "Bundle", "CarePlan", "Claim", "ClaimResponse", "ClinicalImpression", "Communication", "CommunicationRequest",
        "Composition", "ConceptMap", "Condition", "Contract", "Coverage", "DataElement", "DetectedIssue", "Device",
        "DeviceComponent", "DeviceMetric", "DeviceUseStatement", "DiagnosticReport", "DocumentManifest", "DocumentReference",
        "EligibilityRequest", "EligibilityResponse", "Encounter", "EnrollmentRequest", "EnrollmentResponse", "EpisodeOfCare",
        "ExplanationOfBenefit", "FamilyMemberHistory", "Flag", "Goal", "Group", "HealthcareService", "ImagingObjectSelection",
        "ImagingStudy", "Immunization", "ImmunizationRecommendation", "ImplementationGuide", "List", "Location", "Media",
        "Medication", "MedicationAdministration", "MedicationDispense", "MedicationStatement", "MessageHeader", "NamingSystem",
        "NutritionOrder", "Observation", "OperationDefinition", "OperationOutcome", "Organization", "Parameters", "Patient",
        "PaymentNotice", "PaymentReconciliation", "Person", "Practitioner", "Procedure", "ProcessRequest", "ProcessResponse",
        "Provenance", "Questionnaire", "QuestionnaireResponse", "RelatedPerson", "RiskAssessment", "Schedule", "SearchParameter",
        "Slot", "Specimen", "StructureDefinition", "Subscription", "Substance", "SupplyDelivery", "SupplyRequest", "TestScript",
        "ValueSet", "VisionPrescription",
    ]
    /// In DSTU2 only (renamed or dropped in R4).
    static let dstu2Only: Set<String> = [
        "Conformance", "DeviceUseRequest", "DiagnosticOrder", "MedicationOrder", "Order", "OrderResponse", "ProcedureRequest",
        "ReferralRequest",
    ]
    /// In R4 only.
    static let r4Only: Set<String> = [
        "ActivityDefinition", "AdverseEvent", "BiologicallyDerivedProduct", "BodyStructure", "CapabilityStatement", "CareTeam",
        "CatalogEntry", "ChargeItem", "ChargeItemDefinition", "CodeSystem", "CompartmentDefinition", "CoverageEligibilityRequest",
        "CoverageEligibilityResponse", "DeviceDefinition", "DeviceRequest", "EffectEvidenceSynthesis", "Endpoint", "EventDefinition",
        "Evidence", "EvidenceVariable", "ExampleScenario", "GraphDefinition", "GuidanceResponse", "ImmunizationEvaluation",
        "InsurancePlan", "Invoice", "Library", "Linkage", "Measure", "MeasureReport", "MedicationKnowledge", "MedicationRequest",
        "MedicinalProduct", "MedicinalProductAuthorization", "MedicinalProductContraindication", "MedicinalProductIndication",
        "MedicinalProductIngredient", "MedicinalProductInteraction", "MedicinalProductManufactured", "MedicinalProductPackaged",
        "MedicinalProductPharmaceutical", "MedicinalProductUndesirableEffect", "MessageDefinition", "MolecularSequence",
        "ObservationDefinition", "OrganizationAffiliation", "PlanDefinition", "PractitionerRole", "RequestGroup", "ResearchDefinition",
        "ResearchElementDefinition", "ResearchStudy", "ResearchSubject", "ServiceRequest", "SpecimenDefinition", "StructureMap",
        "SubstanceNucleicAcid", "SubstancePolymer", "SubstanceProtein", "SubstanceReferenceInformation", "SubstanceSourceMaterial",
        "SubstanceSpecification", "Task", "TerminologyCapabilities", "TestReport", "VerificationResult", "DetectedIssue",
    ]
    static let all = both.union(dstu2Only).union(r4Only)
}
