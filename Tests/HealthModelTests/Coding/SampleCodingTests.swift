import Foundation
import Testing
@testable import HealthModel

/// Samples archive every field, their object's included, and come back as the same class.
@Suite("Sample coding")
struct SampleCodingTests {
    typealias F = CodingFixtures

    static func heartRate(metadata: [String: HKMetadataValue]? = nil) -> HKQuantitySample {
        HKQuantitySample.make(type: HKQuantityType(.heartRate), quantity: HKQuantity(unit: HKUnit(from: "count/min"), doubleValue: 72.5),
                              start: F.start, end: F.end, metadata: metadata, sourceRevision: F.revision, device: F.device)
    }

    @Test func metadataOfEveryKindComesBackExactly() throws {
        let sample = Self.heartRate(metadata: F.everyKindOfMetadata)
        let back = try #require(try roundTrip(sample))
        #expect(identical(back.metadataValues, F.everyKindOfMetadata))
        #expect(back.metadataValues?["yes"] == .bool(true) && back.metadataValues?["one"] == .integer(1))
        #expect(back.metadata?[HKMetadataKeyWasUserEntered] as? Bool == true)
        #expect((back.metadata?["glucose"] as? HKQuantity)?.unit == F.glucoseUnit)
    }

    @Test func absentAndEmptyMetadataStayApart() throws {
        #expect(try #require(try roundTrip(Self.heartRate(metadata: nil))).metadataValues == nil)
        #expect(try #require(try roundTrip(Self.heartRate(metadata: [:]))).metadataValues == [:])
    }

    @Test func theObjectFieldsComeBack() throws {
        let sample = Self.heartRate()
        let back = try #require(try roundTrip(sample, as: HKSample.self))
        #expect(back.uuid == sample.uuid && back == sample)
        #expect(back.sourceRevision == F.revision && back.sourceRevision.productType == "iPhone14,2")
        #expect(back.sourceRevision.operatingSystemVersion.minorVersion == 2 && back.sourceRevision.source.name == "Steps")
        #expect(back.device == F.device && back.device?.udiDeviceIdentifier == "00888888888888")
        #expect(back.startDate == F.start && back.endDate == F.end && back.sampleType == HKQuantityType(.heartRate))
    }

    @Test func eachQuantitySampleClassComesBackAsItself() throws {
        let steps = HKQuantitySample.make(type: HKQuantityType(.stepCount), quantity: HKQuantity(unit: .count(), doubleValue: 1_200),
                                          start: F.start, end: F.end, count: 3, metadata: nil, device: nil)
        let plain = HKQuantitySample(type: HKQuantityType(.bodyMass), quantity: HKQuantity(unit: .pound(), doubleValue: 150.2),
                                     start: F.start, end: F.start)
        for sample in [steps, Self.heartRate(), plain] {
            let back = try #require(try roundTrip(sample))
            #expect(type(of: back) == type(of: sample))
            #expect(back.quantityType == sample.quantityType && identical(back.quantity, sample.quantity) && back.count == sample.count)
        }
        #expect(try roundTrip(steps) is HKCumulativeQuantitySample)
    }

    @Test func aDiscreteSeriesSampleKeepsItsSummary() throws {
        let unit = HKUnit(from: "count/min")
        let series = HKDiscreteQuantitySample.SeriesSummary(
            minimum: HKQuantity(unit: unit, doubleValue: 55), maximum: HKQuantity(unit: unit, doubleValue: 141.5),
            mostRecent: HKQuantity(unit: unit, doubleValue: 88), mostRecentDateInterval: DateInterval(start: F.end, duration: 0.25))
        let sample = HKDiscreteQuantitySample(
            type: HKQuantityType(.heartRate), average: HKQuantity(unit: unit, doubleValue: 91.25), series: series, start: F.start,
            end: F.end, count: 17, uuid: UUID(), metadata: nil, sourceRevision: F.revision, device: nil)
        let back = try #require(try roundTrip(sample))
        #expect(back.count == 17 && identical(back.averageQuantity, sample.averageQuantity))
        #expect(identical(back.minimumQuantity, series.minimum) && identical(back.maximumQuantity, series.maximum))
        #expect(identical(back.mostRecentQuantity, series.mostRecent) && back.mostRecentQuantityDateInterval == series.mostRecentDateInterval)
        let single = try #require(try roundTrip(Self.heartRate()) as? HKDiscreteQuantitySample)
        #expect(single.series == nil)
    }

    @Test func aCategorySampleComesBack() throws {
        let sample = HKCategorySample(type: HKCategoryType(.sleepAnalysis), value: HKCategoryValueSleepAnalysis.asleepREM.rawValue,
                                      start: F.start, end: F.end, metadata: F.everyKindOfMetadata, sourceRevision: F.revision, device: F.device)
        let back = try #require(try roundTrip(sample))
        #expect(back == sample && back.categoryType == HKCategoryType(.sleepAnalysis) && back.value == sample.value)
        #expect(back.startDate == F.start && back.endDate == F.end && identical(back.metadataValues, F.everyKindOfMetadata))
    }

    @Test func aCorrelationComesBackWithItsSamples() throws {
        let mmHg = HKUnit(from: "mmHg")
        let systolic = HKQuantitySample.make(type: HKQuantityType(.bloodPressureSystolic), quantity: HKQuantity(unit: mmHg, doubleValue: 121),
                                             start: F.start, end: F.start, metadata: nil, device: nil)
        let diastolic = HKQuantitySample.make(type: HKQuantityType(.bloodPressureDiastolic), quantity: HKQuantity(unit: mmHg, doubleValue: 79),
                                              start: F.start, end: F.start, metadata: ["position": .string("seated")], device: nil)
        let reading = try HKCorrelation.validated(type: HKCorrelationType(.bloodPressure), start: F.start, end: F.start,
                                                  objects: [systolic, diastolic], metadata: ["cuff": "left"])
        let back = try #require(try roundTrip(reading))
        #expect(back == reading && back.correlationType == HKCorrelationType(.bloodPressure) && back.objects == reading.objects)
        let backDiastolic = try #require(back.objects(for: HKQuantityType(.bloodPressureDiastolic)).first as? HKQuantitySample)
        #expect(identical(backDiastolic.quantity, diastolic.quantity) && backDiastolic.metadataValues == ["position": .string("seated")])
        #expect(back.metadata?["cuff"] as? String == "left")
    }

    @Test func aWorkoutRouteKeepsItsCount() throws {
        let route = HKWorkoutRoute(count: 1_234, start: F.start, end: F.end, metadata: nil, sourceRevision: F.revision, device: nil)
        let back = try #require(try roundTrip(route))
        #expect(back == route && back.count == 1_234 && back.sampleType == HKSeriesType.workoutRoute() && back.startDate == F.start)
    }

    @Test func aDeletedObjectKeepsItsUUIDAndSyncMetadata() throws {
        let deleted = HKDeletedObject(uuid: UUID(), metadata: [HKMetadataKeySyncIdentifier: .string("abc"), HKMetadataKeySyncVersion: .integer(7)])
        let back = try #require(try roundTrip(deleted))
        #expect(back == deleted && back.metadataValues == deleted.metadataValues)
        #expect(try #require(try roundTrip(HKDeletedObject(uuid: UUID(), metadata: nil))).metadataValues == nil)
    }

    @Test func copyingASampleGivesTheSampleItself() {
        let sample = Self.heartRate()
        #expect(sample.copy() as? HKQuantitySample === sample)
        let deleted = HKDeletedObject(uuid: UUID(), metadata: nil)
        #expect(deleted.copy() as? HKDeletedObject === deleted)
    }
}
