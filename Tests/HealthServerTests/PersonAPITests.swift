import Foundation
import OpenHealthKit
import Testing

/// The person's characteristics, preferred units and the sources of samples, over the wire as any HTTP client sees
/// them: what an app may read, what it may not (which looks like nothing entered), and the 400s that name the field.
@Suite("The daemon: characteristics, preferred units, sources")
struct PersonAPITests {
    @Test func aCharacteristicIsItsCodeOrDateOnlyWhereTheAppMayReadIt() async throws {
        try await DaemonHarness.with { daemon in
            let person = try daemon.person()
            try person.setBiologicalSex(.male)
            try person.setBloodType(.abPositive)
            try person.setDateOfBirth(DateComponents(year: 1990, month: 1, day: 31))
            let token = try await daemon.connect("com.example.log", read: [HKCharacteristicType(.biologicalSex), HKCharacteristicType(.dateOfBirth)])
            let sex = try await daemon.raw(.GET, "/v1/characteristics/HKCharacteristicTypeIdentifierBiologicalSex", token: token)
            #expect(sex.status == 200 && sex.body == #"{"code":2}"#, "\(sex.body)")
            let birth = try await daemon.raw(.GET, "/v1/characteristics/HKCharacteristicTypeIdentifierDateOfBirth", token: token)
            #expect(birth.body == #"{"dateOfBirth":"1990-01-31"}"#)
            // Not allowed: the same empty answer as nothing entered.
            let blood = try await daemon.raw(.GET, "/v1/characteristics/HKCharacteristicTypeIdentifierBloodType", token: token)
            let skin = try await daemon.raw(.GET, "/v1/characteristics/HKCharacteristicTypeIdentifierFitzpatrickSkinType", token: token)
            #expect(blood.status == 200 && blood.body == "{}" && skin.body == blood.body)

            let log = try await AccessLogTests.lines(daemon, count: 4)
            #expect(log.contains(.init(app: "com.example.log", operation: "read", type: "HKCharacteristicTypeIdentifierBiologicalSex", count: 1,
                                       outcome: "allowed")))
            #expect(log.contains(.init(app: "com.example.log", operation: "read", type: "HKCharacteristicTypeIdentifierBloodType", count: 0,
                                       outcome: "allowed")))
        }
    }

    @Test(arguments: [
        ("/v1/characteristics/HKQuantityTypeIdentifierStepCount", "/path/identifier"),
        ("/v1/characteristics/nope", "/path/identifier"),
    ])
    func aCharacteristicThatIsNotOneIs400(path: String, field: String) async throws {
        try await DaemonHarness.with { daemon in
            let token = try await daemon.connect("com.example.log")
            let answer = try await daemon.raw(.GET, path, token: token)
            #expect(answer.status == 400 && answer.json["field"] as? String == field, "\(answer.body)")
            #expect(answer.json["code"] as? Int == HKError.Code.errorInvalidArgument.rawValue)
        }
    }

    @Test func preferredUnitsNeedTheAppToHaveAskedAndNameEachType() async throws {
        try await DaemonHarness.with { daemon in
            let temperature = HKQuantityType(.bodyTemperature)
            try daemon.person().setPreferredUnit(.degreeFahrenheit(), for: temperature)
            let token = try await daemon.connect("com.example.log", read: [temperature])
            let units = try await daemon.raw(.POST, "/v1/preferred-units", body: #"{"types":["HKQuantityTypeIdentifierBodyTemperature"]}"#, token: token)
            #expect(units.status == 200 && units.body == #"{"units":{"HKQuantityTypeIdentifierBodyTemperature":"degF"}}"#, "\(units.body)")
            let unasked = try await daemon.raw(.POST, "/v1/preferred-units", body: #"{"types":["HKQuantityTypeIdentifierHeartRate"]}"#, token: token)
            #expect(unasked.status == 403, "\(unasked.body)")
            #expect(unasked.json["code"] as? Int == HKError.Code.errorAuthorizationNotDetermined.rawValue)
            let notQuantity = try await daemon.raw(.POST, "/v1/preferred-units", body: #"{"types":["HKCategoryTypeIdentifierSleepAnalysis"]}"#,
                                                   token: token)
            #expect(notQuantity.status == 400 && notQuantity.json["field"] as? String == "/types/0", "\(notQuantity.body)")
        }
    }

    @Test func sourcesAreNamesAndBundleIdentifiersOfWhatTheAppMaySee() async throws {
        try await DaemonHarness.with { daemon in
            let steps = HKQuantityType(.stepCount)
            let writer = try await daemon.connect("com.example.writer", name: "Writer", share: [steps])
            _ = try await daemon.client(token: writer).saveObjects(body: .json(.init(samples: [
                SampleAPITests.sample(steps.identifier, SampleAPITests.morning, quantity: .init(value: 10, unit: "count")),
            ]))).noContent
            let reader = try await daemon.connect("com.example.reader", name: "Reader", read: [steps])
            let blind = try await daemon.connect("com.example.blind", name: "Blind")
            let body = #"{"type":"HKQuantityTypeIdentifierStepCount"}"#
            let seen = try await daemon.raw(.POST, "/v1/queries/sources", body: body, token: reader)
            #expect(seen.body == #"{"sources":[{"bundleIdentifier":"com.example.writer","name":"Writer"}]}"#, "\(seen.body)")
            let hidden = try await daemon.raw(.POST, "/v1/queries/sources", body: body, token: blind)
            #expect(hidden.body == #"{"sources":[]}"#, "no sample of its own, and none it may read")
            let badPredicate = try await daemon.raw(.POST, "/v1/queries/sources",
                                                    body: #"{"type":"HKQuantityTypeIdentifierStepCount","predicate":{"kind":"dateRange","start":"soon"}}"#, token: reader)
            #expect(badPredicate.status == 400 && (badPredicate.json["field"] as? String)?.hasPrefix("/predicate") == true, "\(badPredicate.body)")
        }
    }
}
