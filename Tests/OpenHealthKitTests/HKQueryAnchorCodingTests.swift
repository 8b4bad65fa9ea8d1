import Foundation
import Testing
@testable import OpenHealthKit

/// HKQueryAnchor is kept the way HealthKit apps keep it: NSSecureCoding through NSKeyedArchiver (and Codable).
@Suite("HKQueryAnchor coding")
struct HKQueryAnchorCodingTests {
    @Test func anAnchorArchivedWithSecureCodingComesBackEqual() throws {
        let anchor = HKQueryAnchor(fromValue: 42)
        let data = try NSKeyedArchiver.archivedData(withRootObject: anchor, requiringSecureCoding: true)
        let restored = try #require(try NSKeyedUnarchiver.unarchivedObject(ofClass: HKQueryAnchor.self, from: data))
        #expect(restored == anchor && restored.hashValue == anchor.hashValue && restored !== anchor)
        #expect(restored != HKQueryAnchor(fromValue: 43))
        #expect(anchor.copy() as? HKQueryAnchor == anchor)
        let json = try JSONDecoder().decode(HKQueryAnchor.self, from: JSONEncoder().encode(anchor))
        #expect(json == anchor)
    }

    @Test func anArchiveOfSomethingElseIsNotAnAnchor() throws {
        let data = try NSKeyedArchiver.archivedData(withRootObject: NSString(string: "not an anchor"), requiringSecureCoding: true)
        // Apple's Foundation throws; swift-corelibs-foundation gives nil. Either way, no anchor.
        let anchor: HKQueryAnchor? = (try? NSKeyedUnarchiver.unarchivedObject(ofClass: HKQueryAnchor.self, from: data)) ?? nil
        #expect(anchor == nil)
    }
}
