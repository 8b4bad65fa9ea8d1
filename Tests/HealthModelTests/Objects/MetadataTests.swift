import Foundation
import Testing
@testable import HealthModel

@Suite("Metadata")
struct MetadataTests {
    func sample(_ metadata: [String: Any]) throws -> HKQuantitySample {
        try HKQuantitySample.validated(type: HKQuantityType(.stepCount), quantity: HKQuantity(unit: .count(), doubleValue: 10),
                                       start: t0, end: t1, metadata: metadata)
    }

    @Test func everyAllowedKindRoundTrips() throws {
        let when = Date(timeIntervalSince1970: 1_600_000_000)
        let s = try sample([
            "com.example.note": "morning walk",
            "com.example.when": when,
            "com.example.int": 7,
            "com.example.double": 2.5,
            "com.example.flag": true,
            "com.example.temp": HKQuantity(unit: .degreeCelsius(), doubleValue: 21),
        ])
        let m = try #require(s.metadata)
        #expect(m["com.example.note"] as? String == "morning walk")
        #expect(m["com.example.when"] as? Date == when)
        #expect(m["com.example.int"] as? Int == 7)
        #expect(m["com.example.double"] as? Double == 2.5)
        #expect(m["com.example.flag"] as? Bool == true)
        #expect((m["com.example.temp"] as? HKQuantity)?.doubleValue(for: .kelvin()) == 294.15)
    }

    @Test func aValueOfADisallowedTypeIsNamedByKey() {
        #expect {
            _ = try sample(["com.example.list": [1, 2, 3]])
        } throws: { error in
            guard let error = error as? HKError else { return false }
            return error.code == .errorInvalidArgument && error.message.contains("com.example.list")
                && error.message.contains("HealthKit allows String, Date, number, Bool and HKQuantity")
        }
        #expect(throws: HKError(.errorInvalidArgument)) { _ = try sample(["blob": Data([1, 2])]) }
        #expect(throws: HKError(.errorInvalidArgument)) { _ = try sample(["url": URL(fileURLWithPath: "/")]) }
    }

    @Test func nonFiniteNumbersAreRejected() {
        #expect(throws: HKError(.errorInvalidArgument)) { _ = try sample(["x": Double.nan]) }
        #expect(throws: HKError(.errorInvalidArgument)) { _ = try sample(["x": HKQuantity(unit: .count(), doubleValue: .infinity)]) }
    }

    @Test func anEmptyKeyIsRejected() {
        #expect(throws: HKError(.errorInvalidArgument)) { _ = try sample(["": "x"]) }
    }

    @Test func healthKitKeysHoldTheKindTheirTableGives() throws {
        _ = try sample([HKMetadataKeyTimeZone: "Europe/Paris", HKMetadataKeyWasUserEntered: true])
        #expect {
            _ = try sample([HKMetadataKeyTimeZone: 5])
        } throws: { error in
            (error as? HKError)?.message.contains("must hold a String, not a number") == true
        }
        #expect(throws: HKError(.errorInvalidArgument)) { _ = try sample([HKMetadataKeyWasUserEntered: "yes"]) }
    }

    @Test func quantityKeysCheckTheirUnit() throws {
        _ = try sample([HKMetadataKeyLapLength: HKQuantity(unit: .meter(), doubleValue: 25)])
        #expect {
            _ = try sample([HKMetadataKeyLapLength: HKQuantity(unit: .kilocalorie(), doubleValue: 25)])
        } throws: { error in
            (error as? HKError)?.message.contains("not compatible with m") == true
        }
        #expect(throws: HKError(.errorInvalidArgument)) {
            _ = try sample([HKMetadataKeyWeatherTemperature: HKQuantity(unit: .percent(), doubleValue: 0.5)])
        }
    }

    @Test func aSessionEstimateMustFitTheSamplesType() throws {
        _ = try sample([HKMetadataKeySessionEstimate: HKQuantity(unit: .count(), doubleValue: 10)])
        #expect(throws: HKError(.errorInvalidArgument)) {
            _ = try sample([HKMetadataKeySessionEstimate: HKQuantity(unit: .gram(), doubleValue: 10)])
        }
    }

    @Test func aSyncIdentifierNeedsAVersion() throws {
        _ = try sample([HKMetadataKeySyncIdentifier: "abc", HKMetadataKeySyncVersion: 1])
        #expect {
            _ = try sample([HKMetadataKeySyncIdentifier: "abc"])
        } throws: { error in
            (error as? HKError)?.message.contains("without \(HKMetadataKeySyncVersion)") == true
        }
    }

    @Test func deletedObjectsKeepOnlySyncMetadata() throws {
        let uuid = UUID()
        let deleted = HKDeletedObject(uuid: uuid, metadata: [
            HKMetadataKeySyncIdentifier: .string("abc"), HKMetadataKeySyncVersion: .integer(2), "note": .string("private"),
        ])
        #expect(deleted.uuid == uuid)
        #expect(deleted.metadata?.count == 2)
        #expect(deleted.metadata?["note"] == nil)
        #expect(HKDeletedObject(uuid: uuid, metadata: ["note": .string("x")]).metadata == nil)
    }
}
