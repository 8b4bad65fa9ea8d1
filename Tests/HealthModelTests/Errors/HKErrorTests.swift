import Foundation
import Testing
@testable import HealthModel

@Suite("HKError")
struct HKErrorTests {
    @Test func codesHaveApplesRawValuesAndDomain() {
        #expect(HKError.Code.errorInvalidArgument.rawValue == 3)
        #expect(HKError.Code.errorAuthorizationNotDetermined.rawValue == 5)
        #expect(HKError.Code.errorNotPermissibleForGuestUserMode.rawValue == 15)
        #expect(HKError.Code.allCases.count == 16)
        #expect(HKError.errorDomain == "com.apple.healthkit")
        #expect(HKErrorDomain == "com.apple.healthkit")
    }

    @Test func catchMatchesOnTheCodeAsWithApplesErrorStructs() {
        func failing() throws { throw HKError(.errorAuthorizationDenied, "denied for steps") }
        var matched = false
        do { try failing() } catch HKError.errorAuthorizationDenied { matched = true } catch {}
        #expect(matched)
    }

    @Test func messageTravelsThroughUserInfoAndNSError() {
        let error = HKError(.errorInvalidArgument, userInfo: [NSLocalizedDescriptionKey: "bad unit \"kgg\""])
        #expect(error.message == "bad unit \"kgg\"")
        let ns = error as NSError
        #expect(ns.domain == HKErrorDomain)
        #expect(ns.code == 3)
        #expect(error.localizedDescription == "bad unit \"kgg\"")
    }

    @Test func errorsCompareByCode() {
        #expect(HKError(.errorNoData, "a") == HKError(.errorNoData, "b"))
        #expect(HKError(.errorNoData) != HKError(.errorInvalidArgument))
    }
}
