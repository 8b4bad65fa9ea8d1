import Foundation
import Testing
@testable import HealthModel

/// Checks the generated catalog against the reference tables in shared/reference/healthkit, read at test
/// time, so that nothing is silently missing or different.
@Suite("Identifier catalog")
struct CatalogTests {
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let tables: URL = {
        if let override = ProcessInfo.processInfo.environment["OPENHEALTHKIT_SHARED"] {
            return URL(fileURLWithPath: override).appendingPathComponent("reference/healthkit")
        }
        return repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/reference/healthkit")
    }()

    /// Rows of a TSV table as dictionaries keyed by the header (comment lines skipped).
    static func rows(_ name: String) throws -> [[String: String]] {
        let text = try String(contentsOf: tables.appendingPathComponent(name), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: true).filter { !$0.hasPrefix("#") }
        let header = lines[0].split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        return lines.dropFirst().map { line in
            let cells = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            return Dictionary(uniqueKeysWithValues: zip(header, cells + Array(repeating: "", count: max(0, header.count - cells.count))))
        }
    }

    static let aggregation: [String: HKQuantityAggregationStyle] = [
        "Cumulative": .cumulative, "Discrete (Arithmetic)": .discreteArithmetic,
        "Discrete (Temporally Weighted)": .discreteTemporallyWeighted,
        "Discrete (Equivalent Continuous Level)": .discreteEquivalentContinuousLevel,
    ]

    @Test func everyQuantityTypeRow() throws {
        let rows = try Self.rows("quantity-types.tsv")
        #expect(rows.count == 120)
        #expect(HealthCatalog.quantityTypes.count == 120)
        for row in rows {
            let info = try #require(HealthCatalog.quantityType(row["raw_value"]!), "\(row["identifier"]!) missing")
            #expect(info.swiftName == row["swift_case"])
            #expect(info.group == row["group"])
            #expect(info.aggregationStyle == Self.aggregation[row["aggregation"]!])
            #expect(info.canonicalUnitString == (row["canonical_unit"]!.isEmpty ? "count" : row["canonical_unit"]))
            #expect(info.isDeprecated == (row["deprecated"] == "yes"))
            let type = HKQuantityType(HKQuantityTypeIdentifier(rawValue: row["raw_value"]!))
            #expect(type.aggregationStyle == Self.aggregation[row["aggregation"]!])
        }
    }

    @Test func everyCategoryTypeRowAndItsValues() throws {
        let rows = try Self.rows("category-types.tsv")
        let values = try Self.rows("category-values.tsv")
        #expect(rows.count == 70)
        #expect(values.count == 62)
        #expect(HealthCatalog.categoryTypes.count == 70)
        for row in rows {
            let info = try #require(HealthCatalog.categoryType(row["raw_value"]!), "\(row["identifier"]!) missing")
            // Two rows share a raw string (audioExposureEvent, deprecated, and environmentalAudioExposureEvent).
            let sharing = rows.filter { $0["raw_value"] == row["raw_value"] }.map { $0["swift_case"]! }
            #expect(sharing.contains(info.swiftName))
            guard sharing.count == 1 else { continue }
            let enumName = row["value_enum"]!
            if !enumName.isEmpty {
                #expect(info.valueEnumName == enumName)
                let expected = Set(values.filter { $0["enum"] == enumName }.compactMap { Int($0["raw_value"]!) })
                #expect(info.allowedValues == expected, "\(row["identifier"]!)")
            }
        }
        #expect(HealthCatalog.categoryType("HKCategoryTypeIdentifierHypertensionEvent")?.allowedValues == nil)
    }

    @Test func everyOtherTypeRow() throws {
        let rows = try Self.rows("other-types.tsv")
        #expect(rows.count == 27)
        #expect(HealthCatalog.otherTypes.count == 27)
        for row in rows {
            let info = try #require(HealthCatalog.otherType(row["raw_value"]!), "\(row["identifier"]!) missing")
            #expect(info.kind == row["kind"])
            #expect(info.swiftName == row["swift_case"])
        }
    }

    @Test func everyWorkoutActivityType() throws {
        let rows = try Self.rows("workout-activity-types.tsv")
        #expect(rows.count == 84)
        #expect(HKWorkoutActivityType.allCases.count == 84)
        for row in rows {
            let type = try #require(HKWorkoutActivityType(rawValue: UInt(row["raw_value"]!)!))
            #expect(type.exportName == row["export_string"])
            #expect(HKWorkoutActivityType(exportName: row["export_string"]!) == type)
        }
        #expect(HKWorkoutActivityType(rawValue: 81) == nil)
        #expect(HKWorkoutActivityType(exportName: "HKWorkoutActivityTypeQuidditch") == nil)
    }

    @Test func everyMetadataKey() throws {
        let rows = try Self.rows("metadata-keys.tsv")
        #expect(rows.count == 71)
        #expect(HealthCatalog.metadataKeys.count == 71)
        let generated = Dictionary(uniqueKeysWithValues: HealthCatalog.metadataKeys.map { ($0.constant, ($0.value, $0.valueType)) })
        for row in rows {
            let entry = try #require(generated[row["constant"]!], "\(row["constant"]!) missing")
            #expect(entry.0 == row["raw_string"])
            #expect(entry.1 == row["value_type"])
        }
    }

    @Test func everyCategoryValueEnumCase() throws {
        let values = try Self.rows("category-values.tsv")
        let live: [String: [Int]] = [
            "HKCategoryValueSleepAnalysis": HKCategoryValueSleepAnalysis.allCases.map(\.rawValue),
            "HKCategoryValueSeverity": HKCategoryValueSeverity.allCases.map(\.rawValue),
            "HKCategoryValueAppetiteChanges": HKCategoryValueAppetiteChanges.allCases.map(\.rawValue),
            "HKCategoryValueVaginalBleeding": HKCategoryValueVaginalBleeding.allCases.map(\.rawValue),
            "HKCategoryValueOvulationTestResult": HKCategoryValueOvulationTestResult.allCases.map(\.rawValue),
            "HKCategoryValueContraceptive": HKCategoryValueContraceptive.allCases.map(\.rawValue),
            "HKCategoryValueCervicalMucusQuality": HKCategoryValueCervicalMucusQuality.allCases.map(\.rawValue),
            "HKCategoryValuePresence": HKCategoryValuePresence.allCases.map(\.rawValue),
            "HKCategoryValueAppleStandHour": HKCategoryValueAppleStandHour.allCases.map(\.rawValue),
        ]
        for (name, cases) in live {
            let expected = Set(values.filter { $0["enum"] == name }.compactMap { Int($0["raw_value"]!) })
            #expect(Set(cases) == expected, "\(name)")
        }
    }

    @Test func swiftSpellingsMatchApples() {
        #expect(HKQuantityTypeIdentifier.stepCount.rawValue == "HKQuantityTypeIdentifierStepCount")
        #expect(HKQuantityTypeIdentifier.vo2Max.rawValue == "HKQuantityTypeIdentifierVO2Max")
        #expect(HKCategoryTypeIdentifier.environmentalAudioExposureEvent.rawValue == "HKCategoryTypeIdentifierAudioExposureEvent")
        #expect(HKWorkoutActivityType.other.rawValue == 3000)
        #expect(HKWorkoutActivityType.running.exportName == "HKWorkoutActivityTypeRunning")
        #expect(HKCategoryValueSleepAnalysis.asleepREM.rawValue == 5)
        #expect(HKCategoryValueSleepAnalysis.allAsleepValues.count == 4)
        #expect(HKMetadataKeyExternalUUID == "HKExternalUUID")
        #expect(HKMetadataKeySyncIdentifier == "HKMetadataKeySyncIdentifier")
        #expect(HKDocumentTypeIdentifier.CDA.rawValue == "HKDocumentTypeIdentifierCDA")
        #expect(HKScoredAssessmentTypeIdentifier.GAD7.rawValue == "HKScoredAssessmentTypeIdentifierGAD7")
        #expect(HKFHIRResourceType.allergyIntolerance.rawValue == "AllergyIntolerance")
        #expect(HKFHIRRelease.r4.rawValue == "R4")
        #expect(HKDataTypeIdentifierStateOfMind == "HKDataTypeStateOfMind")
        #expect(HKBloodType.abNegative.rawValue == 6)
        #expect(HKFitzpatrickSkinType.VI.rawValue == 6)
        #expect(HKAppleECGAlgorithmVersion.version2.rawValue == 2)
        #expect(HKVO2MaxTestType.predictionStepTest.rawValue == 4)
        #expect(HKWeatherCondition.mostlyCloudy.rawValue == 4)
        #expect(HKWorkoutSessionLocationType.outdoor.rawValue == 3)
        #expect(HKObjectQueryNoLimit == 0)
        #expect(HKPredicateKeyPathCDATitle == "title")
        #expect(HKDevicePropertyKeyUDIDeviceIdentifier == "HKDevicePropertyUDIDeviceIdentifier")
    }

    @Test func generatedFilesAreCurrent() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.repositoryRoot.appendingPathComponent("Scripts/generate_catalog.py").path,
                             "--check", "--tables", Self.tables.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text.prefix(2000))")
    }
}
