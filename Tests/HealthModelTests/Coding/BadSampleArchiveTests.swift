import Foundation
import Testing
@testable import HealthModel

/// Damaged or tampered sample archives decode to nothing — never to a wrong object, never to a crash.
@Suite("Bad sample archives")
struct BadSampleArchiveTests {
    typealias F = CodingFixtures

    static let sample = HKCategorySample(type: HKCategoryType(.sleepAnalysis), value: HKCategoryValueSleepAnalysis.asleepCore.rawValue,
                                         start: F.start, end: F.end, metadata: ["note": .string("ok")], sourceRevision: F.revision, device: F.device)

    @Test func anArchiveForgedWithNothingChangedStillDecodes() throws {
        // The forgery itself is sound, so the failures below come from the change each one makes.
        let back = try #require(decoded(HKCategorySample.self, from: try forgedArchive(of: Self.sample)))
        #expect(back == Self.sample && back.metadataValues == Self.sample.metadataValues)
    }

    @Test func anEndBeforeTheStartDoesNotDecode() throws {
        let data = try forgedArchive(of: Self.sample, replacing: ["endDate": F.start.timeIntervalSinceReferenceDate - 1])
        #expect(decoded(HKCategorySample.self, from: data) == nil)
        let infinite = try forgedArchive(of: Self.sample, replacing: ["startDate": -Double.infinity])
        #expect(decoded(HKCategorySample.self, from: infinite) == nil)
    }

    @Test func missingOrMalformedObjectFieldsDoNotDecode() throws {
        for key in ["uuid", "sourceRevision", "startDate", "endDate", "sampleType", "value"] {
            #expect(decoded(HKCategorySample.self, from: try forgedArchive(of: Self.sample, removing: [key])) == nil, "\(key)")
        }
        #expect(decoded(HKCategorySample.self, from: try forgedArchive(of: Self.sample, replacing: ["uuid": "not-a-uuid"])) == nil)
    }

    @Test func aSampleTypeOfAnotherKindDoesNotDecode() throws {
        let data = try forgedArchive(of: Self.sample, replacing: ["sampleType": HKQuantityType(.heartRate)])
        #expect(decoded(HKCategorySample.self, from: data) == nil)
        let unknown = try forgedArchive(of: Self.sample, replacing: ["sampleType": try forgedArchiveObject(identifier: "HKCategoryTypeIdentifierMadeUp")])
        #expect(decoded(HKCategorySample.self, from: unknown) == nil)
    }

    @Test func aQuantitySampleOfTheWrongAggregationClassDoesNotDecode() throws {
        let heartRate = SampleCodingTests.heartRate()
        #expect(decoded(HKCumulativeQuantitySample.self, from: try forgedArchive(of: heartRate, as: HKCumulativeQuantitySample.self)) == nil)
        let steps = HKQuantitySample.make(type: HKQuantityType(.stepCount), quantity: HKQuantity(unit: .count(), doubleValue: 10),
                                          start: F.start, end: F.end, metadata: nil, device: nil)
        #expect(decoded(HKDiscreteQuantitySample.self, from: try forgedArchive(of: steps, as: HKDiscreteQuantitySample.self)) == nil)
    }

    @Test func aQuantityInAUnitTheTypeDoesNotAllowDoesNotDecode() throws {
        let data = try forgedArchive(of: SampleCodingTests.heartRate(), replacing: ["quantity": HKQuantity(unit: .gram(), doubleValue: 72)])
        #expect(decoded(HKQuantitySample.self, from: data) == nil)
        let noCount = try forgedArchive(of: SampleCodingTests.heartRate(), replacing: ["count": 0])
        #expect(decoded(HKQuantitySample.self, from: noCount) == nil)
    }

    @Test func theAbstractSampleClassesDoNotDecode() throws {
        for abstract in [HKObject.self, HKSample.self, HKSeriesSample.self, HKDocumentSample.self] as [HKObject.Type] {
            let data = try forgedArchive(of: Self.sample, as: abstract)
            #expect(decoded(HKObject.self, from: data) == nil, "\(abstract)")
        }
    }

    @Test func malformedMetadataDoesNotDecode() throws {
        let bad: [[String]] = [
            ["key", "string"],                                   // not three strings per entry
            ["key", "colour", "red"],                            // unknown kind
            ["key", "bool", "1"],                                // a Bool is true or false
            ["key", "double", "nan"],                            // numbers are finite
            ["key", "integer", "1.5"],
            ["key", "date", "yesterday"],
            ["key", "quantity", "5 kg/m/s"],                     // a unit that does not parse
            ["key", "quantity", "5"],
            ["key", "string", "a", "key", "string", "b"],        // a repeated key
            ["", "string", "a"],
        ]
        for entries in bad {
            let data = try forgedArchive(of: Self.sample, replacing: ["metadata": entries])
            #expect(decoded(HKCategorySample.self, from: data) == nil, "\(entries)")
        }
        let notStrings = try forgedArchive(of: Self.sample, replacing: ["metadata": [HKQuantity(unit: .count(), doubleValue: 1)]])
        #expect(decoded(HKCategorySample.self, from: notStrings) == nil)
    }

    @Test func aBadNestedObjectFailsTheWholeSample() throws {
        let badRevision = try forgedArchive(of: Self.sample, replacing: ["sourceRevision": HKSource(name: "n", bundleIdentifier: "b")])
        #expect(decoded(HKCategorySample.self, from: badRevision) == nil)
        let badDevice = try forgedArchive(of: Self.sample, replacing: ["device": HKQuantityType(.heartRate)])
        #expect(decoded(HKCategorySample.self, from: badDevice) == nil)
        let reading = try HKCorrelation.validated(
            type: HKCorrelationType(.food), start: F.start, end: F.start,
            objects: [HKQuantitySample.make(type: HKQuantityType(.dietaryEnergyConsumed), quantity: HKQuantity(unit: .kilocalorie(), doubleValue: 90),
                                            start: F.start, end: F.start, metadata: nil, device: nil)])
        let notSamples = try forgedArchive(of: reading, replacing: ["objects": [HKQuantity(unit: .count(), doubleValue: 1)]])
        #expect(decoded(HKCorrelation.self, from: notSamples) == nil)
    }

    /// An object archived as an `HKCategoryType` with any identifier.
    private func forgedArchiveObject(identifier: String) throws -> some NSCoding {
        ForgedCategoryType(identifier: identifier)
    }
}

private final class ForgedCategoryType: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }
    let identifier: String
    init(identifier: String) { self.identifier = identifier }
    required init?(coder: NSCoder) { nil }
    override var classForKeyedArchiver: AnyClass? { HKCategoryType.self }
    override var classForCoder: AnyClass { HKCategoryType.self }
    func encode(with coder: NSCoder) { coder.encode(identifier, forKey: "identifier") }
}
