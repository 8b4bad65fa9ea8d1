import Foundation
import Testing
@testable import HealthModel

@Suite("Object types")
struct HKObjectTypeTests {
    @Test func quantityTypeFactoriesAgreeAndHashByIdentifier() throws {
        let a = HKQuantityType(.stepCount)
        let b = try #require(HKObjectType.quantityType(forIdentifier: .stepCount))
        #expect(a == b)
        #expect(a.identifier == "HKQuantityTypeIdentifierStepCount")
        let set: Set<HKObjectType> = [a, b, HKQuantityType(.heartRate)]
        #expect(set.count == 2)
        let byType: [HKQuantityType: String] = [a: "steps"]
        #expect(byType[b] == "steps")
    }

    @Test func unknownIdentifiersGiveNil() {
        #expect(HKObjectType.quantityType(forIdentifier: HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierBogus")) == nil)
        #expect(HKObjectType.categoryType(forIdentifier: HKCategoryTypeIdentifier(rawValue: "nope")) == nil)
        // A quantity identifier is not a characteristic.
        #expect(HKObjectType.characteristicType(forIdentifier: HKCharacteristicTypeIdentifier(rawValue: "HKQuantityTypeIdentifierStepCount")) == nil)
        #expect(HKObjectType.seriesType(forIdentifier: "HKQuantityTypeIdentifierStepCount") == nil)
        #expect(HKObjectType.type(forIdentifier: "HKQuantityTypeIdentifierBogus") == nil)
    }

    @Test func aggregationStylesComeFromTheCatalog() {
        #expect(HKQuantityType(.stepCount).aggregationStyle == .cumulative)
        #expect(HKQuantityType(.bodyMass).aggregationStyle == .discreteArithmetic)
        #expect(HKQuantityType(.heartRate).aggregationStyle == .discreteTemporallyWeighted)
        #expect(HKQuantityType(.environmentalAudioExposure).aggregationStyle == .discreteEquivalentContinuousLevel)
    }

    @Test func compatibilityFollowsTheTypesDimension() throws {
        let heartRate = HKQuantityType(.heartRate)
        #expect(heartRate.is(compatibleWith: HKUnit(from: "count/min")))
        #expect(heartRate.is(compatibleWith: .count().unitDivided(by: .second())))
        #expect(!heartRate.is(compatibleWith: .gram()))
        #expect(HKQuantityType(.bodyMass).is(compatibleWith: .pound()))
        #expect(HKQuantityType(.bloodGlucose).is(compatibleWith: HKUnit(from: "mmol<180.15588000005408>/L")))
        #expect(HKQuantityType(.bodyFatPercentage).is(compatibleWith: .percent()))
        #expect(!HKQuantityType(.bodyFatPercentage).is(compatibleWith: .count()))
        #expect(HKQuantityType(.vo2Max).is(compatibleWith: HKUnit(from: "mL/min·kg")))
        #expect(!HKQuantityType(.stepCount).is(compatibleWith: .percent()))
    }

    @Test func everyQuantityTypesCanonicalUnitParsesAndFitsItsType() throws {
        for info in HealthCatalog.quantityTypes {
            let unit = try HKUnit.parse(info.canonicalUnitString)
            let type = HKQuantityType(info: info)
            #expect(type.is(compatibleWith: unit), "\(info.identifier) rejects its own unit \(info.canonicalUnitString)")
        }
    }

    @Test func everyCatalogIdentifierResolvesToTheRightClass() throws {
        for info in HealthCatalog.quantityTypes {
            #expect(HKObjectType.type(forIdentifier: info.identifier) is HKQuantityType)
        }
        for info in HealthCatalog.categoryTypes {
            #expect(HKObjectType.type(forIdentifier: info.identifier) is HKCategoryType)
        }
        for info in HealthCatalog.otherTypes {
            let type = HKObjectType.type(forIdentifier: info.identifier)
            switch info.kind {
            case "characteristic": #expect(type is HKCharacteristicType, "\(info.identifier)")
            case "correlation": #expect(type is HKCorrelationType, "\(info.identifier)")
            case "document": #expect(type is HKDocumentType, "\(info.identifier)")
            case "clinical": #expect(type is HKClinicalType, "\(info.identifier)")
            case "scored-assessment": #expect(type is HKScoredAssessmentType, "\(info.identifier)")
            default: break
            }
            #expect(type?.identifier == info.identifier || info.kind == "other")
        }
    }

    @Test func specialTypesHaveTheirIdentifiersAndClasses() throws {
        #expect(HKObjectType.workoutType().identifier == "HKWorkoutTypeIdentifier")
        #expect(HKObjectType.type(forIdentifier: "HKWorkoutTypeIdentifier") is HKWorkoutType)
        #expect(HKSeriesType.workoutRoute().identifier == "HKWorkoutRouteTypeIdentifier")
        #expect(HKSeriesType.heartbeat().identifier == "HKDataTypeIdentifierHeartbeatSeries")
        #expect(HKObjectType.seriesType(forIdentifier: HKWorkoutRouteTypeIdentifier) == HKSeriesType.workoutRoute())
        #expect(HKObjectType.activitySummaryType().identifier == "HKActivitySummaryTypeIdentifier")
        #expect(HKObjectType.visionPrescriptionType().requiresPerObjectAuthorization())
        #expect(!HKQuantityType(.stepCount).requiresPerObjectAuthorization())
        #expect(HKObjectType.stateOfMindType().identifier == "HKDataTypeStateOfMind")
        #expect(try #require(HKObjectType.characteristicType(forIdentifier: .dateOfBirth)) == HKCharacteristicType(.dateOfBirth))
        #expect(try #require(HKObjectType.correlationType(forIdentifier: .bloodPressure)) == HKCorrelationType(.bloodPressure))
        #expect(try #require(HKObjectType.clinicalType(forIdentifier: .labResultRecord)) == HKClinicalType(.labResultRecord))
        #expect(try #require(HKObjectType.documentType(forIdentifier: .CDA)) == HKDocumentType(.CDA))
    }

    @Test func correlationTypesKnowTheirMembers() {
        let bp = HKCorrelationType(.bloodPressure).memberTypeIdentifiers
        #expect(bp == [HKQuantityTypeIdentifier.bloodPressureSystolic.rawValue, HKQuantityTypeIdentifier.bloodPressureDiastolic.rawValue])
        let food = HKCorrelationType(.food).memberTypeIdentifiers
        #expect(food.contains(HKQuantityTypeIdentifier.dietaryEnergyConsumed.rawValue))
        #expect(food.contains(HKQuantityTypeIdentifier.dietaryProtein.rawValue))
        #expect(!food.contains(HKQuantityTypeIdentifier.stepCount.rawValue))
    }

    @Test func sampleTypesAreNotDurationRestricted() {
        let type = HKQuantityType(.heartRate)
        #expect(!type.isMaximumDurationRestricted)
        #expect(!type.isMinimumDurationRestricted)
        #expect(HKQuantityType(.sixMinuteWalkTestDistance).allowsRecalibrationForEstimates)
        #expect(!type.allowsRecalibrationForEstimates)
    }

    @Test func unknownIdentifierInAppleInitializerTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = HKQuantityType(HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierBogus"))
        }
    }
}
