import Foundation
import Testing
import TestSupport
@testable import HealthModel

/// Checks every row of the reference tables (read at test time) against the generated catalog.
@Suite("Identifier catalog against the reference tables")
struct CatalogTests {
    typealias Tables = CatalogReferenceTables

    static let aggregation: [String: HKQuantityAggregationStyle] = [
        "Cumulative": .cumulative,
        "Discrete (Arithmetic)": .discreteArithmetic,
        "Discrete (Temporally Weighted)": .discreteTemporallyWeighted,
        "Discrete (Equivalent Continuous Level)": .discreteEquivalentContinuousLevel,
    ]

    @Test func tableAndCatalogCounts() throws {
        #expect(try Tables.rows("quantity-types.tsv").count == 120)
        #expect(try Tables.rows("category-types.tsv").count == 70)
        #expect(try Tables.rows("category-values.tsv").count == 62)
        #expect(try Tables.rows("other-types.tsv").count == 27)
        #expect(try Tables.rows("workout-activity-types.tsv").count == 84)
        #expect(try Tables.rows("enums.tsv").count == 430)
        #expect(try Tables.rows("metadata-keys.tsv").count == 71)

        #expect(HealthCatalog.quantityTypes.count == 120)
        #expect(HealthCatalog.categoryTypes.count == 70)
        #expect(HealthCatalog.otherTypes.count == 27)
        #expect(HealthCatalog.metadataKeys.count == 71)
        #expect(HealthCatalog.metadataKeyValueTypes.count == 71)
        #expect(HKWorkoutActivityType.allCases.count == 84)
        #expect(HKQuantityTypeIdentifier.catalogConstants.count == 120)
        #expect(HKCategoryTypeIdentifier.catalogConstants.count == 70)
        #expect(HKCharacteristicTypeIdentifier.catalogConstants.count == 6)
        #expect(HKCorrelationTypeIdentifier.catalogConstants.count == 2)
        #expect(HKDocumentTypeIdentifier.catalogConstants.count == 1)
        #expect(HKScoredAssessmentTypeIdentifier.catalogConstants.count == 2)
        #expect(HKClinicalTypeIdentifier.catalogConstants.count == 9)
        #expect(HKFHIRResourceType.catalogConstants.count == 12)
        #expect(HKFHIRRelease.catalogConstants.count == 3)
        // 8 device property keys, 54 predicate key paths, 2 sample and 5 workout sort identifiers,
        // HKDetailedCDAValidationErrorKey and HKUserPreferencesDidChangeNotification. (The source revision wildcards
        // are declared by Objects/HKSourceRevision.swift.)
        #expect(HealthCatalog.globalStringConstants.count == 73)
    }

    // MARK: - Types

    @Test func everyQuantityTypeRow() throws {
        let rows = try Tables.rows("quantity-types.tsv")
        try #require(rows.count == HealthCatalog.quantityTypes.count)
        for (row, info) in zip(rows, HealthCatalog.quantityTypes) {
            let raw = row["raw_value"]
            #expect(info.identifier == raw)
            #expect(info.swiftName == row["swift_case"], "\(raw)")
            #expect(info.group == row["group"], "\(raw)")
            #expect(info.canonicalUnitString == (row["canonical_unit"].isEmpty ? "count" : row["canonical_unit"]), "\(raw)")
            #expect(info.aggregationStyle == Self.aggregation[row["aggregation"]], "\(raw)")
            #expect(info.iosSince == row["ios_since"], "\(raw)")
            #expect(info.isDeprecated == row.isDeprecated, "\(raw)")

            let looked = try #require(HealthCatalog.quantityType(raw), "\(raw) is not in the catalog")
            #expect(looked.swiftName == row["swift_case"])
            #expect(looked.aggregationStyle == Self.aggregation[row["aggregation"]])
            #expect(looked.group == row["group"])
        }
        for (row, constant) in zip(rows, HKQuantityTypeIdentifier.catalogConstants) {
            #expect(constant.swiftName == row["swift_case"])
            #expect(constant.value.rawValue == row["raw_value"], "HKQuantityTypeIdentifier.\(constant.swiftName)")
        }
    }

    @Test func everyCategoryTypeRow() throws {
        let rows = try Tables.rows("category-types.tsv")
        let values = try Tables.rows("category-values.tsv")
        try #require(rows.count == HealthCatalog.categoryTypes.count)
        for (row, info) in zip(rows, HealthCatalog.categoryTypes) {
            let raw = row["raw_value"]
            #expect(info.identifier == raw)
            #expect(info.swiftName == row["swift_case"], "\(raw)")
            #expect(info.group == row["group"], "\(raw)")
            #expect(info.iosSince == row["ios_since"], "\(raw)")
            #expect(info.isDeprecated == row.isDeprecated, "\(raw)")

            // The deprecated AudioExposureEvent row names no enum; its enum is the deprecated
            // HKCategoryValueAudioExposureEvent. HypertensionEvent's enum is unknown.
            var enumName: String? = row["value_enum"].isEmpty ? nil : row["value_enum"]
            if row["identifier"] == "HKCategoryTypeIdentifierAudioExposureEvent" {
                enumName = "HKCategoryValueAudioExposureEvent"
            }
            #expect(info.valueEnumName == enumName, "\(raw)")
            if let enumName {
                #expect(info.allowedValues == Self.allowedValues(enumName, values), "\(row["swift_case"])")
            } else {
                #expect(info.allowedValues == nil, "\(row["swift_case"])")
            }

            // Raw strings resolve to the live row where a deprecated row shares it.
            let looked = try #require(HealthCatalog.categoryType(raw), "\(raw) is not in the catalog")
            let sharing = rows.filter { $0["raw_value"] == raw }
            let expected = sharing.first(where: { !$0.isDeprecated }) ?? sharing[0]
            #expect(looked.swiftName == expected["swift_case"])
        }
        for (row, constant) in zip(rows, HKCategoryTypeIdentifier.catalogConstants) {
            #expect(constant.swiftName == row["swift_case"])
            #expect(constant.value.rawValue == row["raw_value"], "HKCategoryTypeIdentifier.\(constant.swiftName)")
        }
        let hypertension = try #require(HealthCatalog.categoryType("HKCategoryTypeIdentifierHypertensionEvent"))
        #expect(hypertension.valueEnumName == nil && hypertension.allowedValues == nil)
        #expect(HealthCatalog.categoryType("HKCategoryTypeIdentifierMenstrualFlow")?.allowedValues == [1, 2, 3, 4, 5])
        #expect(HealthCatalog.categoryType("HKCategoryTypeIdentifierSleepAnalysis")?.allowedValues == [0, 1, 2, 3, 4, 5])
    }

    /// The raw values of `enumName`'s live cases plus deprecated cases sharing a live raw value; all raw values
    /// when the whole enum is deprecated.
    static func allowedValues(_ enumName: String, _ values: [CatalogRow]) -> Set<Int> {
        let cases = values.filter { $0["enum"] == enumName }
        let live = Set(cases.filter { !$0.isDeprecated }.compactMap { Int($0["raw_value"]) })
        if live.isEmpty { return Set(cases.compactMap { Int($0["raw_value"]) }) }
        return live
    }

    @Test func everyOtherTypeRow() throws {
        let rows = try Tables.rows("other-types.tsv")
        try #require(rows.count == HealthCatalog.otherTypes.count)
        for (row, info) in zip(rows, HealthCatalog.otherTypes) {
            let raw = row["raw_value"]
            #expect(info.kind == row["kind"], "\(raw)")
            #expect(info.identifier == raw)
            #expect(info.swiftName == row["swift_case"], "\(raw)")
            #expect(info.group == row["group"], "\(raw)")
            #expect(info.iosSince == row["ios_since"], "\(raw)")
            #expect(info.isDeprecated == row.isDeprecated, "\(raw)")
            #expect(HealthCatalog.otherType(raw)?.swiftName == row["swift_case"], "\(raw)")
        }
        let structs: [String: [(swiftName: String, rawValue: String)]] = [
            "characteristic": HKCharacteristicTypeIdentifier.catalogConstants.map { ($0.swiftName, $0.value.rawValue) },
            "correlation": HKCorrelationTypeIdentifier.catalogConstants.map { ($0.swiftName, $0.value.rawValue) },
            "document": HKDocumentTypeIdentifier.catalogConstants.map { ($0.swiftName, $0.value.rawValue) },
            "scored-assessment": HKScoredAssessmentTypeIdentifier.catalogConstants.map { ($0.swiftName, $0.value.rawValue) },
            "clinical": HKClinicalTypeIdentifier.catalogConstants.map { ($0.swiftName, $0.value.rawValue) },
        ]
        let globals: [String: String] = [
            "HKWorkoutTypeIdentifier": HKWorkoutTypeIdentifier,
            "HKWorkoutRouteTypeIdentifier": HKWorkoutRouteTypeIdentifier,
            "HKDataTypeIdentifierHeartbeatSeries": HKDataTypeIdentifierHeartbeatSeries,
            "HKVisionPrescriptionTypeIdentifier": HKVisionPrescriptionTypeIdentifier,
            "HKDataTypeIdentifierStateOfMind": HKDataTypeIdentifierStateOfMind,
            "HKMedicationDoseEventTypeIdentifierMedicationDoseEvent": HKMedicationDoseEventTypeIdentifierMedicationDoseEvent,
            "HKDataTypeIdentifierUserAnnotatedMedicationConcept": HKDataTypeIdentifierUserAnnotatedMedicationConcept,
        ]
        for (kind, constants) in structs {
            let kindRows = rows.filter { $0["kind"] == kind }
            #expect(constants.map(\.swiftName) == kindRows.map { $0["swift_case"] }, "\(kind)")
            #expect(constants.map(\.rawValue) == kindRows.map { $0["raw_value"] }, "\(kind)")
        }
        let otherRows = rows.filter { $0["kind"] == "other" }
        #expect(otherRows.count == globals.count)
        for row in otherRows {
            #expect(globals[row["identifier"]] == row["raw_value"], "\(row["identifier"])")
        }
    }

    @Test func correlationMembers() throws {
        let quantity = try Tables.rows("quantity-types.tsv")
        let nutrition = Set(quantity.filter { $0["group"] == "Nutrition" }.map { $0["raw_value"] })
        #expect(nutrition.count == 39)
        let food = try #require(HealthCatalog.correlationMemberTypes(HKCorrelationTypeIdentifier.food.rawValue))
        #expect(food == nutrition)
        #expect(food.contains(HKQuantityTypeIdentifier.dietaryWater.rawValue))
        #expect(food.contains(HKQuantityTypeIdentifier.dietaryEnergyConsumed.rawValue))
        #expect(!food.contains(HKQuantityTypeIdentifier.bloodGlucose.rawValue))
        #expect(HealthCatalog.correlationMemberTypes(HKCorrelationTypeIdentifier.bloodPressure.rawValue) == [
            HKQuantityTypeIdentifier.bloodPressureSystolic.rawValue, HKQuantityTypeIdentifier.bloodPressureDiastolic.rawValue,
        ])
        #expect(HealthCatalog.correlationMemberTypes(HKQuantityTypeIdentifier.stepCount.rawValue) == nil)
    }

    @Test func unknownIdentifiersAreNotFound() {
        #expect(HealthCatalog.quantityType("HKQuantityTypeIdentifierQuidditchScore") == nil)
        #expect(HealthCatalog.categoryType("HKQuantityTypeIdentifierStepCount") == nil)
        #expect(HealthCatalog.otherType("") == nil)
        #expect(HealthCatalog.quantityType("stepCount") == nil)
    }

    // MARK: - Enums

    @Test func everyCategoryValueEnum() throws {
        let rows = try Tables.rows("category-values.tsv")
        let generated: [String: [(name: String, rawValue: Int)]] = [
            "HKCategoryValue": Self.cases(HKCategoryValue.self),
            "HKCategoryValueAppetiteChanges": Self.cases(HKCategoryValueAppetiteChanges.self),
            "HKCategoryValueAppleStandHour": Self.cases(HKCategoryValueAppleStandHour.self),
            "HKCategoryValueAppleWalkingSteadinessEvent": Self.cases(HKCategoryValueAppleWalkingSteadinessEvent.self),
            "HKCategoryValueCervicalMucusQuality": Self.cases(HKCategoryValueCervicalMucusQuality.self),
            "HKCategoryValueContraceptive": Self.cases(HKCategoryValueContraceptive.self),
            "HKCategoryValueEnvironmentalAudioExposureEvent": Self.cases(HKCategoryValueEnvironmentalAudioExposureEvent.self),
            "HKCategoryValueHeadphoneAudioExposureEvent": Self.cases(HKCategoryValueHeadphoneAudioExposureEvent.self),
            "HKCategoryValueLowCardioFitnessEvent": Self.cases(HKCategoryValueLowCardioFitnessEvent.self),
            "HKCategoryValueOvulationTestResult": Self.cases(HKCategoryValueOvulationTestResult.self),
            "HKCategoryValuePregnancyTestResult": Self.cases(HKCategoryValuePregnancyTestResult.self),
            "HKCategoryValuePresence": Self.cases(HKCategoryValuePresence.self),
            "HKCategoryValueProgesteroneTestResult": Self.cases(HKCategoryValueProgesteroneTestResult.self),
            "HKCategoryValueSeverity": Self.cases(HKCategoryValueSeverity.self),
            "HKCategoryValueSleepAnalysis": Self.cases(HKCategoryValueSleepAnalysis.self),
            "HKCategoryValueVaginalBleeding": Self.cases(HKCategoryValueVaginalBleeding.self),
        ]
        let liveEnums = Set(rows.map { $0["enum"] }).filter { name in rows.contains { $0["enum"] == name && !$0.isDeprecated } }
        #expect(Set(generated.keys) == liveEnums)
        for (name, cases) in generated {
            let expected = Self.expectedCases(rows.filter { $0["enum"] == name }, swiftName: { $0["swift_case"] })
            #expect(cases.map(\.name) == expected.map(\.name), "\(name)")
            #expect(cases.map(\.rawValue) == expected.map(\.rawValue), "\(name)")
        }
        #expect(HKCategoryValueSleepAnalysis.allAsleepValues == [.asleepUnspecified, .asleepCore, .asleepDeep, .asleepREM])
    }

    /// The enums of enums.tsv the data model uses: every case's raw value, and a Swift name that is the ObjC
    /// constant's tail (case-insensitively; a digit-led tail keeps the enum name's last word, as in `version1`).
    @Test func everyModelEnum() throws {
        let rows = try Tables.rows("enums.tsv")
        let generated: [String: [(name: String, rawValue: Int)]] = [
            "HKBiologicalSex": Self.cases(HKBiologicalSex.self),
            "HKBloodType": Self.cases(HKBloodType.self),
            "HKFitzpatrickSkinType": Self.cases(HKFitzpatrickSkinType.self),
            "HKWheelchairUse": Self.cases(HKWheelchairUse.self),
            "HKActivityMoveMode": Self.cases(HKActivityMoveMode.self),
            "HKQuantityAggregationStyle": Self.cases(HKQuantityAggregationStyle.self),
            "HKWorkoutEventType": Self.cases(HKWorkoutEventType.self),
            "HKUpdateFrequency": Self.cases(HKUpdateFrequency.self),
            "HKAuthorizationStatus": Self.cases(HKAuthorizationStatus.self),
            "HKAuthorizationRequestStatus": Self.cases(HKAuthorizationRequestStatus.self),
            "HKBodyTemperatureSensorLocation": Self.cases(HKBodyTemperatureSensorLocation.self),
            "HKHeartRateSensorLocation": Self.cases(HKHeartRateSensorLocation.self),
            "HKHeartRateMotionContext": Self.cases(HKHeartRateMotionContext.self),
            "HKUserMotionContext": Self.cases(HKUserMotionContext.self),
            "HKHeartRateRecoveryTestType": Self.cases(HKHeartRateRecoveryTestType.self),
            "HKWeatherCondition": Self.cases(HKWeatherCondition.self),
            "HKWorkoutSwimmingLocationType": Self.cases(HKWorkoutSwimmingLocationType.self),
            "HKWorkoutSessionLocationType": Self.cases(HKWorkoutSessionLocationType.self),
            "HKSwimmingStrokeStyle": Self.cases(HKSwimmingStrokeStyle.self),
            "HKInsulinDeliveryReason": Self.cases(HKInsulinDeliveryReason.self),
            "HKBloodGlucoseMealTime": Self.cases(HKBloodGlucoseMealTime.self),
            "HKVO2MaxTestType": Self.cases(HKVO2MaxTestType.self),
            "HKDevicePlacementSide": Self.cases(HKDevicePlacementSide.self),
            "HKAppleECGAlgorithmVersion": Self.cases(HKAppleECGAlgorithmVersion.self),
            "HKWaterSalinity": Self.cases(HKWaterSalinity.self),
            "HKCyclingFunctionalThresholdPowerTestType": Self.cases(HKCyclingFunctionalThresholdPowerTestType.self),
            "HKPhysicalEffortEstimationType": Self.cases(HKPhysicalEffortEstimationType.self),
        ]
        for (name, cases) in generated {
            let enumRows = rows.filter { $0["enum"] == name }
            #expect(!enumRows.isEmpty, "\(name) has no rows in enums.tsv")
            let expected = Self.expectedCases(enumRows, swiftName: { $0["case"] })
            #expect(cases.map(\.rawValue) == expected.map(\.rawValue), "\(name)")
            for (generatedCase, row) in zip(cases, expected) {
                let constant = row.name.lowercased()
                let tail = String(constant.dropFirst(name.count))
                let swift = generatedCase.name.lowercased()
                #expect(swift == tail || (tail.first?.isNumber == true && constant.hasSuffix(swift)),
                        "\(name).\(generatedCase.name) for \(row.name)")
            }
        }
        #expect(Self.cases(HKBloodType.self).map(\.name) == [
            "notSet", "aPositive", "aNegative", "bPositive", "bNegative", "abPositive", "abNegative", "oPositive", "oNegative",
        ])
        #expect(Self.cases(HKFitzpatrickSkinType.self).map(\.name) == ["notSet", "I", "II", "III", "IV", "V", "VI"])
        #expect(Self.cases(HKAppleECGAlgorithmVersion.self).map(\.name) == ["version1", "version2"])
        #expect(Self.cases(HKQuantityAggregationStyle.self).map(\.name) == [
            "cumulative", "discreteArithmetic", "discreteTemporallyWeighted", "discreteEquivalentContinuousLevel",
        ])
        #expect(HKVO2MaxTestType.maxExercise.rawValue == 1)
        #expect(HKWeatherCondition.mostlyCloudy.rawValue == 4)
        #expect(HKWorkoutEventType.pauseOrResumeRequest.rawValue == 8)
        #expect(HKActivityMoveMode.appleMoveTime.rawValue == 2)
    }

    /// The cases of a generated enum, in declaration order: Swift name and raw value.
    static func cases<E: CaseIterable & RawRepresentable>(_: E.Type) -> [(name: String, rawValue: Int)]
    where E.RawValue == Int {
        E.allCases.map { (String(describing: $0), $0.rawValue) }
    }

    /// A table's rows minus deprecated aliases (deprecated rows whose raw value a live row has), in table order.
    static func expectedCases(_ rows: [CatalogRow], swiftName: (CatalogRow) -> String) -> [(name: String, rawValue: Int)] {
        let live = Set(rows.filter { !$0.isDeprecated }.map { $0["raw_value"] })
        return rows.filter { !($0.isDeprecated && live.contains($0["raw_value"])) }
            .map { (swiftName($0), Int($0["raw_value"]) ?? -1) }
    }

    @Test func everyWorkoutActivityType() throws {
        let rows = try Tables.rows("workout-activity-types.tsv")
        #expect(HKWorkoutActivityType.allCases.map { String($0.rawValue) } == rows.map { $0["raw_value"] })
        for row in rows {
            let raw = try #require(UInt(row["raw_value"]))
            let type = try #require(HKWorkoutActivityType(rawValue: raw), "no case for \(raw)")
            #expect(String(describing: type) == row["case"])
            #expect(type.exportName == row["export_string"])
            #expect(HKWorkoutActivityType(exportName: row["export_string"]) == type)
        }
        #expect(HKWorkoutActivityType(rawValue: 81) == nil)
        #expect(HKWorkoutActivityType(rawValue: 0) == nil)
        #expect(HKWorkoutActivityType(exportName: "HKWorkoutActivityTypeQuidditch") == nil)
        #expect(HKWorkoutActivityType(exportName: "Running") == nil)
    }

    // MARK: - Global constants

    @Test func everyMetadataKey() throws {
        let rows = try Tables.rows("metadata-keys.tsv")
        #expect(HealthCatalog.metadataKeys.map(\.constant) == rows.map { $0["constant"] })
        let values = Dictionary(uniqueKeysWithValues: HealthCatalog.metadataKeys.map { ($0.constant, $0.value) })
        for row in rows {
            #expect(values[row["constant"]] == row["raw_string"], "\(row["constant"])")
            #expect(HealthCatalog.metadataKeyValueTypes[row["raw_string"]] == row["value_type"], "\(row["constant"])")
        }
    }

    @Test func everyGlobalStringConstant() throws {
        let rows = try Tables.rows("enums.tsv")
        let groups: Set<String> = ["HKDevicePropertyKey", "HKPredicateKeyPath", "HKSampleSortIdentifier", "HKWorkoutSortIdentifier",
                                   "HKSourceRevision", "HKUserAnnotatedMedicationPredicateKeyPath"]
        let globals: Set<String> = ["HKDetailedCDAValidationErrorKey", "HKUserPreferencesDidChangeNotification"]
        // Declared outside the catalog (Errors/, Objects/), with the same values; not generated.
        let declaredElsewhere: Set<String> = ["HKErrorDomain", "HKSourceRevisionAnyVersion", "HKSourceRevisionAnyProductType",
                                              "HKHealthConceptDomainMedication"]
        let expected = rows.filter {
            (groups.contains($0["enum"]) || globals.contains($0["case"])) && !$0["raw_value"].isEmpty
                && !declaredElsewhere.contains($0["case"])
        }
        #expect(expected.filter { $0["enum"] == "HKPredicateKeyPath" }.count == 54)
        #expect(expected.filter { $0["enum"] == "HKDevicePropertyKey" }.count == 8)
        #expect(HealthCatalog.globalStringConstants.count == expected.count)
        #expect(Set(HealthCatalog.globalStringConstants.map(\.constant)) == Set(expected.map { $0["case"] }))
        let values = Dictionary(uniqueKeysWithValues: HealthCatalog.globalStringConstants.map { ($0.constant, $0.value) })
        for row in expected {
            #expect(values[row["case"]] == row["raw_value"], "\(row["case"])")
        }
        // Rows without a raw value are skipped, not generated with a made-up value.
        #expect(values["HKSourceRevisionAnyOperatingSystem"] == nil)
        #expect(values.keys.allSatisfy { !declaredElsewhere.contains($0) })
        #expect(!values.keys.contains { $0.hasPrefix("HKMedicationGeneralForm") })
        #expect(HKObjectQueryNoLimit == 0)
    }

    @Test func fhirIdentifiers() throws {
        let rows = try Tables.rows("enums.tsv")
        let resources = rows.filter { $0["enum"] == "HKFHIRResourceType" }
        #expect(HKFHIRResourceType.catalogConstants.map(\.value.rawValue) == resources.map { $0["raw_value"] })
        #expect(HKFHIRResourceType.catalogConstants.map(\.swiftName) == [
            "allergyIntolerance", "condition", "coverage", "diagnosticReport", "documentReference", "immunization",
            "medicationDispense", "medicationOrder", "medicationRequest", "medicationStatement", "observation", "procedure",
        ])
        let releases = rows.filter { $0["enum"] == "HKFHIRRelease" }
        #expect(HKFHIRRelease.catalogConstants.map(\.value.rawValue) == releases.map { $0["raw_value"] })
        #expect(HKFHIRRelease.catalogConstants.map(\.swiftName) == ["dstu2", "r4", "unknown"])
    }

    // MARK: - Apple's spellings

    @Test func swiftSpellingsMatchApples() {
        #expect(HKQuantityTypeIdentifier.stepCount.rawValue == "HKQuantityTypeIdentifierStepCount")
        #expect(HKQuantityTypeIdentifier.vo2Max.rawValue == "HKQuantityTypeIdentifierVO2Max")
        #expect(HKQuantityTypeIdentifier.uvExposure.rawValue == "HKQuantityTypeIdentifierUVExposure")
        #expect(HKQuantityTypeIdentifier.heartRateVariabilitySDNN.rawValue == "HKQuantityTypeIdentifierHeartRateVariabilitySDNN")
        #expect(HKQuantityTypeIdentifier.forcedExpiratoryVolume1.rawValue == "HKQuantityTypeIdentifierForcedExpiratoryVolume1")
        #expect(HKCategoryTypeIdentifier.environmentalAudioExposureEvent.rawValue == "HKCategoryTypeIdentifierAudioExposureEvent")
        #expect(HKCategoryTypeIdentifier.sleepAnalysis.rawValue == "HKCategoryTypeIdentifierSleepAnalysis")
        #expect(HKCharacteristicTypeIdentifier.dateOfBirth.rawValue == "HKCharacteristicTypeIdentifierDateOfBirth")
        #expect(HKCorrelationTypeIdentifier.bloodPressure.rawValue == "HKCorrelationTypeIdentifierBloodPressure")
        #expect(HKDocumentTypeIdentifier.CDA.rawValue == "HKDocumentTypeIdentifierCDA")
        #expect(HKScoredAssessmentTypeIdentifier.GAD7.rawValue == "HKScoredAssessmentTypeIdentifierGAD7")
        #expect(HKScoredAssessmentTypeIdentifier.PHQ9.rawValue == "HKScoredAssessmentTypeIdentifierPHQ9")
        #expect(HKClinicalTypeIdentifier.coverageRecord.rawValue == "HKClinicalTypeIdentifierCoverageRecord")
        #expect(HKFHIRResourceType.allergyIntolerance.rawValue == "AllergyIntolerance")
        #expect(HKFHIRRelease.dstu2.rawValue == "DSTU2")
        #expect(HKFHIRRelease.r4.rawValue == "R4")
        #expect(HKWorkoutActivityType.other.rawValue == 3000)
        #expect(HKWorkoutActivityType.running.exportName == "HKWorkoutActivityTypeRunning")
        #expect(HKCategoryValueSleepAnalysis.asleepREM.rawValue == 5)
        #expect(HKCategoryValue.notApplicable.rawValue == 0)
        #expect(HKMetadataKeyExternalUUID == "HKExternalUUID")
        #expect(HKMetadataKeySyncIdentifier == "HKMetadataKeySyncIdentifier")
        #expect(HKMetadataKeyCyclingFunctionalThresholdPowerTestType == "HKCyclingCyclingFunctionalThresholdPowerTestType")
        #expect(HKDataTypeIdentifierStateOfMind == "HKDataTypeStateOfMind")
        #expect(HKPredicateKeyPathStartDate == "startDate")
        #expect(HKDevicePropertyKeyUDIDeviceIdentifier == "HKDevicePropertyUDIDeviceIdentifier")
        #expect(HKSampleSortIdentifierStartDate == "HKSampleSortIdentifierStartDate")
        #expect(HKUserPreferencesDidChangeNotification == "HKUserPreferencesDidChangeNotification")
        #expect(HKDetailedCDAValidationErrorKey == "HKDetailedCDAValidationErrorKey")
    }

    @Test func identifierStructsBehaveAsApplesDo() {
        let steps = HKQuantityTypeIdentifier("HKQuantityTypeIdentifierStepCount")
        #expect(steps == .stepCount)
        #expect(HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierStepCount") == .stepCount)
        #expect(steps.description == "HKQuantityTypeIdentifierStepCount")
        #expect(Set([steps, .stepCount, .heartRate]).count == 2)
    }

    /// Deprecated API keeps Apple's spelling; a deprecated test may use it without warnings.
    @available(*, deprecated)
    @Test func deprecatedSpellings() {
        #expect(HKCategoryTypeIdentifier.audioExposureEvent.rawValue == "HKCategoryTypeIdentifierAudioExposureEvent")
        #expect(HKCategoryValueSleepAnalysis.asleep == .asleepUnspecified)
        #expect(HKCategoryValueOvulationTestResult.positive == .luteinizingHormoneSurge)
        #expect(HKQuantityAggregationStyle.discrete == .discreteArithmetic)
        #expect(HKWorkoutActivityType.dance.rawValue == 14)
        #expect(HKWorkoutActivityType.danceInspiredTraining.exportName == "HKWorkoutActivityTypeDanceInspiredTraining")
        #expect(HKWorkoutActivityType.mixedMetabolicCardioTraining.rawValue == 30)
        #expect(HKCategoryValueMenstrualFlow.allCases.map(\.rawValue) == [1, 2, 3, 4, 5])
        #expect(HKCategoryValueMenstrualFlow.none.rawValue == 5)
        #expect(HKCategoryValueAudioExposureEvent.allCases.map(\.rawValue) == [1])
        #expect(HKCategoryValueAudioExposureEvent.loudEnvironment.rawValue == 1)
        #expect(HKPredicateKeyPathWorkoutTotalDistance == "totalDistance")
        #expect(HKPredicateKeyPathWorkoutTotalEnergyBurned == "totalEnergyBurned")
    }
}

/// `Scripts/generate_catalog.py --check` passes on the committed files and catches stale ones.
@Suite("Catalog generator")
struct CatalogGeneratorTests {
    /// Runs the generator with `arguments`; returns its exit status and combined output.
    static func runGenerator(_ arguments: [String]) async throws -> (status: Int32, output: String) {
        let script = try #require(CatalogReferenceTables.generatorScript, "Scripts/generate_catalog.py not found")
        return try await runToEnd(URL(fileURLWithPath: "/usr/bin/env"), ["python3", script.path] + arguments)
    }

    @Test func committedFilesAreCurrent() async throws {
        let tables = try #require(CatalogReferenceTables.folder, "reference tables not found")
        let result = try await Self.runGenerator([tables.path, "--check"])
        #expect(result.status == 0, "generated files are stale:\n\(result.output.prefix(4000))")
    }

    @Test func checkReportsADifference() async throws {
        let tables = try #require(CatalogReferenceTables.folder, "reference tables not found")
        let fileManager = FileManager.default
        let copy = fileManager.temporaryDirectory.appendingPathComponent("catalog-tables-\(UUID().uuidString)")
        try fileManager.copyItem(at: tables, to: copy)
        // The shared tables are read-only, and so is the copy: make it writable (and removable).
        try fileManager.setAttributes([.posixPermissions: 0o755], ofItemAtPath: copy.path)
        defer { try? fileManager.removeItem(at: copy) }
        let metadata = copy.appendingPathComponent("metadata-keys.tsv")
        try fileManager.setAttributes([.posixPermissions: 0o644], ofItemAtPath: metadata.path)
        let text = try String(contentsOf: metadata, encoding: .utf8)
        try text.replacingOccurrences(of: "\tHKExternalUUID\t", with: "\tHKChangedUUID\t")
            .write(to: metadata, atomically: true, encoding: .utf8)

        let result = try await Self.runGenerator(["--tables", copy.path, "--check"])
        #expect(result.status == 1)
        #expect(result.output.contains("+public let HKMetadataKeyExternalUUID = \"HKChangedUUID\""))
        #expect(result.output.contains("-public let HKMetadataKeyExternalUUID = \"HKExternalUUID\""))
    }
}
