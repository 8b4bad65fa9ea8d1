import Foundation
import Testing
@testable import OpenHealthKit

/// Errors say no more than the app may read.
@Suite("Errors are not oracles")
struct ErrorOracleTests {
    static let other = AppManifest(bundleIdentifier: "com.example.other", name: "Other", shareUsageDescription: "Reads.",
                                   updateUsageDescription: "Writes.")

    /// The error `body` throws, its UUIDs masked (each names the object the app itself passed).
    func message(_ body: () async throws -> Void) async -> (HKError.Code, String)? {
        do {
            try await body()
            return nil
        } catch let error as HKError {
            return (error.code, error.message.replacingOccurrences(of: "[0-9A-F-]{36}", with: "<uuid>", options: .regularExpression))
        } catch {
            return nil
        }
    }

    @Test func deletingAnotherAppsObjectOfAnUnreadableTypeAnswersAsIfItWereAbsent() async throws {
        let (owner, _, folder) = makeStore(.allowAll)
        try await owner.requestAuthorization(toShare: [steps], read: [steps])
        let walk = HKQuantitySample(type: steps, quantity: HKQuantity(unit: .count(), doubleValue: 50), start: now, end: now)
        try await owner.save(walk)
        let gone = HKQuantitySample(type: steps, quantity: HKQuantity(unit: .count(), doubleValue: 50), start: now, end: now)  // never saved

        // May share steps, may not read them: another app's sample and a sample that never was look alike.
        let (blind, _, _) = makeStore(app: Self.other, .allowAll, in: folder)
        try await blind.requestAuthorization(toShare: [steps], read: [])
        try HealthPerson(storeDirectory: folder).setPermission(app: Self.other.bundleIdentifier, type: steps, share: true, read: false)
        let existing = await message { try await blind.delete(walk) }
        let absent = await message { try await blind.delete(gone) }
        #expect(existing != nil && existing?.0 == absent?.0 && existing?.1 == absent?.1, "\(String(describing: existing)) / \(String(describing: absent))")

        // With read permission the app could see the sample: it hears that it is not its own.
        try HealthPerson(storeDirectory: folder).setPermission(app: Self.other.bundleIdentifier, type: steps, share: true, read: true)
        #expect(await message { try await blind.delete(walk) }?.0 == .errorAuthorizationDenied)
    }
}

/// A correlation is as hidden as the types it was saved with, whatever becomes of its members.
@Suite("Emptied correlations")
struct EmptiedCorrelationTests {
    @Test func aCorrelationEmptiedOfItsUnreadableMemberStaysHidden() async throws {
        let energy = HKQuantityType(.dietaryEnergyConsumed), food = HKCorrelationType(.food)
        let (owner, _, folder) = makeStore(.allowAll)
        try await owner.requestAuthorization(toShare: [energy], read: [energy])
        let calories = HKQuantitySample(type: energy, quantity: HKQuantity(unit: .kilocalorie(), doubleValue: 105), start: now, end: now)
        let meal = HKCorrelation(type: food, start: now, end: now, objects: [calories], metadata: [HKMetadataKeyFoodType: "Banana"])
        try await owner.save(meal)

        let (reader, _, _) = makeStore(app: ErrorOracleTests.other, .denyAll, in: folder)
        try await reader.requestAuthorization(toShare: [], read: [energy])
        func seen() async throws -> Int {
            try await HKSampleQueryDescriptor(predicates: [.correlation(type: food)], sortDescriptors: []).result(for: reader).count
        }
        #expect(try await seen() == 0)
        try await owner.delete(calories)  // the member alone
        #expect(try await seen() == 0)
        let sources = try await HKSourceQueryDescriptor(predicate: .correlation(type: food)).result(for: reader)
        #expect(sources.isEmpty)
        // The owner still sees its meal.
        #expect(try await HKSampleQueryDescriptor(predicates: [.correlation(type: food)], sortDescriptors: []).result(for: owner).count == 1)
    }
}
