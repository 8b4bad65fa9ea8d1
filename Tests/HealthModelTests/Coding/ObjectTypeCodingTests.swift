import Foundation
import Testing
@testable import HealthModel

/// Object types archive their identifier and decode through the catalog, as HealthKit's do.
@Suite("Object type coding")
struct ObjectTypeCodingTests {
    /// One type of every kind the catalog has.
    static let everyKind: [HKObjectType] = [
        HKQuantityType(.stepCount), HKCategoryType(.sleepAnalysis), HKCharacteristicType(.dateOfBirth),
        HKCorrelationType(.bloodPressure), HKDocumentType(.CDA), HKClinicalType(.labResultRecord), HKSeriesType.workoutRoute(),
        HKSeriesType.heartbeat(), HKObjectType.workoutType(), HKObjectType.activitySummaryType(), HKObjectType.audiogramSampleType(),
        HKObjectType.electrocardiogramType(), HKObjectType.visionPrescriptionType(), HKObjectType.stateOfMindType(),
        HKScoredAssessmentType(.GAD7),
    ]

    @Test func everyKindOfTypeComesBackAsItsOwnClass() throws {
        for type in Self.everyKind {
            let data = try NSKeyedArchiver.archivedData(withRootObject: type, requiringSecureCoding: true)
            let asItself = try NSKeyedUnarchiver.unarchivedObject(ofClasses: [Swift.type(of: type)], from: data) as? HKObjectType
            let asObjectType = try NSKeyedUnarchiver.unarchivedObject(ofClass: HKObjectType.self, from: data)
            for back in [asItself, asObjectType] {
                #expect(back == type, "\(type.identifier)")
                #expect(back.map { Swift.type(of: $0) == Swift.type(of: type) } == true, "\(type.identifier)")
            }
        }
    }

    @Test func aDecodedQuantityTypeKnowsItsCatalogEntry() throws {
        let heartRate = try #require(try roundTrip(HKQuantityType(.heartRate)))
        #expect(heartRate.aggregationStyle == .discreteTemporallyWeighted)
        #expect(heartRate.is(compatibleWith: HKUnit(from: "count/min")))
        let sleep = try #require(try roundTrip(HKCategoryType(.sleepAnalysis)))
        #expect(sleep.allowedValues == HKCategoryType(.sleepAnalysis).allowedValues)
    }

    @Test func anUnknownIdentifierDoesNotDecode() throws {
        let data = try forgedArchive(of: HKQuantityType(.stepCount), replacing: ["identifier": "HKQuantityTypeIdentifierMadeUp"])
        #expect(decoded(HKQuantityType.self, from: data) == nil)
        let series = try forgedArchive(of: HKSeriesType.workoutRoute(), replacing: ["identifier": "HKSeriesTypeIdentifierMadeUp"])
        #expect(decoded(HKSeriesType.self, from: series) == nil)
    }

    @Test func anIdentifierOfAnotherKindDoesNotDecode() throws {
        let categoryAsQuantity = try forgedArchive(of: HKCategoryType(.sleepAnalysis), as: HKQuantityType.self)
        #expect(decoded(HKQuantityType.self, from: categoryAsQuantity) == nil)
        let quantityAsCategory = try forgedArchive(of: HKQuantityType(.heartRate), as: HKCategoryType.self)
        #expect(decoded(HKCategoryType.self, from: quantityAsCategory) == nil)
        let correlationAsCharacteristic = try forgedArchive(of: HKCorrelationType(.bloodPressure), as: HKCharacteristicType.self)
        #expect(decoded(HKCharacteristicType.self, from: correlationAsCharacteristic) == nil)
        let workoutAsSeries = try forgedArchive(of: HKObjectType.workoutType(), as: HKSeriesType.self)
        #expect(decoded(HKSeriesType.self, from: workoutAsSeries) == nil)
    }

    @Test func theAbstractTypesDoNotDecode() throws {
        let heartRate = HKQuantityTypeIdentifier.heartRate.rawValue
        for abstract in [HKObjectType(identifier: heartRate), HKSampleType(identifier: heartRate)] {
            let data = try NSKeyedArchiver.archivedData(withRootObject: abstract, requiringSecureCoding: true)
            #expect(decoded(HKObjectType.self, from: data) == nil, "\(Swift.type(of: abstract))")
        }
    }

    @Test func anArchiveWithoutAnIdentifierDoesNotDecode() throws {
        let data = try forgedArchive(of: HKQuantityType(.stepCount), removing: ["identifier"])
        #expect(decoded(HKQuantityType.self, from: data) == nil)
        let notAString = try forgedArchive(of: HKQuantityType(.stepCount), replacing: ["identifier": 42])
        #expect(decoded(HKQuantityType.self, from: notAString) == nil)
    }

    @Test func anArchiveOfSomethingElseIsNotAType() throws {
        let data = try NSKeyedArchiver.archivedData(withRootObject: NSString(string: "HKQuantityTypeIdentifierStepCount"), requiringSecureCoding: true)
        #expect(decoded(HKQuantityType.self, from: data) == nil)
    }

    @Test func copyingATypeGivesTheTypeItself() {
        for type in Self.everyKind {
            #expect(type.copy() as? HKObjectType === type)
        }
    }
}
