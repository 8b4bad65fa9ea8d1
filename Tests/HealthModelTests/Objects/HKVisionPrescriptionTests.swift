import Foundation
import Testing
@testable import HealthModel

/// Vision prescriptions: the checks HealthKit makes when one is created (a lens for glasses, units, a prism made for its
/// eye), the dates, the prism's two forms, and the archives.
@Suite("HKVisionPrescription")
struct HKVisionPrescriptionTests {
    static let issued = Date(timeIntervalSinceReferenceDate: 790_000_000)
    static func D(_ value: Double) -> HKQuantity { HKQuantity(unit: .diopter(), doubleValue: value) }
    static func mm(_ value: Double) -> HKQuantity { HKQuantity(unit: .meterUnit(with: .milli), doubleValue: value) }
    static func deg(_ value: Double) -> HKQuantity { HKQuantity(unit: .degreeAngle(), doubleValue: value) }
    static func pD(_ value: Double) -> HKQuantity { HKQuantity(unit: .prismDiopter(), doubleValue: value) }

    static func lens(sphere: HKQuantity = D(-1), axis: HKQuantity? = nil, vertex: HKQuantity? = nil, prism: HKVisionPrism? = nil)
        -> HKGlassesLensSpecification
    {
        HKGlassesLensSpecification(sphere: sphere, cylinder: nil, axis: axis, addPower: nil, vertexDistance: vertex, prism: prism,
                                   farPupillaryDistance: nil, nearPupillaryDistance: nil)
    }

    static func message(_ body: () throws -> Any) -> String? {
        do { _ = try body(); return nil } catch let error as HKError where error.code == .errorInvalidArgument { return error.message } catch { return nil }
    }

    @Test func datesAreTheIssueAndTheExpirationAsHealthKitKeepsThem() throws {
        let lasting = try HKVisionPrescription.validated(type: .glasses, dateIssued: Self.issued, expirationDate: nil)
        #expect(lasting.dateIssued == Self.issued && lasting.startDate == Self.issued)
        #expect(lasting.expirationDate == nil && lasting.endDate == .distantFuture)
        let expiring = try HKVisionPrescription.validated(type: .contacts, dateIssued: Self.issued, expirationDate: Self.issued.addingTimeInterval(86_400))
        #expect(expiring.expirationDate == Self.issued.addingTimeInterval(86_400) && expiring.prescriptionType == .contacts)
        #expect(Self.message { try HKVisionPrescription.validated(type: .glasses, dateIssued: Self.issued, expirationDate: Self.issued.addingTimeInterval(-1)) }?
            .contains("expires") == true)
    }

    @Test func glassesAreCheckedAsHealthKitChecksThem() throws {
        func glasses(_ right: HKGlassesLensSpecification?, _ left: HKGlassesLensSpecification? = nil) throws -> HKGlassesPrescription {
            try HKGlassesPrescription.validated(rightEyeSpecification: right, leftEyeSpecification: left, dateIssued: Self.issued, expirationDate: nil)
        }
        #expect(Self.message { try glasses(nil) }?.contains("needs a lens") == true)
        #expect(Self.message { try glasses(Self.lens(sphere: Self.mm(1))) }?.contains("the right eye's sphere") == true)
        #expect(Self.message { try glasses(nil, Self.lens(axis: Self.D(1))) }?.contains("the left eye's axis") == true)
        #expect(Self.message { try glasses(Self.lens(vertex: Self.D(12))) }?.contains("vertex distance") == true)
        let leftPrism = HKVisionPrism(amount: Self.pD(1), angle: Self.deg(0), eye: .left)
        #expect(Self.message { try glasses(Self.lens(prism: leftPrism)) }?.contains("made for the left eye") == true)
        #expect(Self.message { try HKVisionPrism.validated(amount: Self.D(1), angle: Self.deg(0), eye: .left) }?.contains("prism's amount") == true)
        let made = try glasses(Self.lens(vertex: Self.mm(12)), Self.lens(prism: leftPrism))
        #expect(made.prescriptionType == .glasses && made.leftEye?.prism == leftPrism && made.rightEye?.vertexDistance == Self.mm(12))
        let contacts = HKContactsLensSpecification(sphere: Self.D(-2), cylinder: nil, axis: nil, addPower: nil, baseCurve: Self.D(8), diameter: nil)
        #expect(Self.message { try HKContactsPrescription.validated(rightEyeSpecification: contacts, leftEyeSpecification: nil, brand: "B",
                                                                    dateIssued: Self.issued, expirationDate: nil) }?.contains("base curve") == true)
    }

    @Test func aPrismGivesBothFormsByHealthKitsRules() throws {
        // Polar to rectangular: base in for the right eye at 0°, out for the left; up at 90°.
        let rightIn = HKVisionPrism(amount: Self.pD(2), angle: Self.deg(0), eye: .right)
        #expect(rightIn.horizontalBase == .in && rightIn.horizontalAmount == Self.pD(2))
        #expect(HKVisionPrism(amount: Self.pD(2), angle: Self.deg(0), eye: .left).horizontalBase == .out)
        #expect(HKVisionPrism(amount: Self.pD(2), angle: Self.deg(180), eye: .right).horizontalBase == .out)
        let up = HKVisionPrism(amount: Self.pD(1.5), angle: Self.deg(90), eye: .left)
        #expect(up.verticalBase == .up && abs(up.verticalAmount.doubleValue(for: .prismDiopter()) - 1.5) < 1e-12)
        #expect(HKVisionPrism(amount: Self.pD(1), angle: Self.deg(270), eye: .left).verticalBase == .down)
        // Rectangular to polar: 1 up and 1 in for the right eye is √2 at 45°; base out turns it to 135°; the left eye mirrors.
        let diagonal = HKVisionPrism(verticalAmount: Self.pD(1), verticalBase: .up, horizontalAmount: Self.pD(1), horizontalBase: .in, eye: .right)
        #expect(abs(diagonal.amount.doubleValue(for: .prismDiopter()) - 2.0.squareRoot()) < 1e-12 && diagonal.angle == Self.deg(45))
        #expect(HKVisionPrism(verticalAmount: Self.pD(1), verticalBase: .up, horizontalAmount: Self.pD(1), horizontalBase: .out, eye: .right)
            .angle == Self.deg(135))
        #expect(HKVisionPrism(verticalAmount: Self.pD(1), verticalBase: .down, horizontalAmount: Self.pD(1), horizontalBase: .in, eye: .left)
            .angle == Self.deg(225))
    }

    @Test func archivedPrescriptionsComeBackTheSame() throws {
        let prism = HKVisionPrism(amount: Self.pD(0.75), angle: Self.deg(30), eye: .right)
        let glasses = HKGlassesPrescription(rightEyeSpecification: Self.lens(axis: Self.deg(90), vertex: Self.mm(13), prism: prism),
                                            leftEyeSpecification: nil, dateIssued: Self.issued, expirationDate: nil, device: nil,
                                            metadata: ["clinic": "North"])
        let back = try #require(try roundTrip(glasses))
        #expect(back.rightEye == glasses.rightEye && back.leftEye == nil && back.uuid == glasses.uuid && back.expirationDate == nil)
        #expect(back.rightEye?.prism?.angle == Self.deg(30) && back.metadata?["clinic"] as? String == "North")
        let lens = HKContactsLensSpecification(sphere: Self.D(-2), cylinder: Self.D(-0.75), axis: Self.deg(180), addPower: nil,
                                               baseCurve: Self.mm(8.6), diameter: Self.mm(14))
        let contacts = HKContactsPrescription(rightEyeSpecification: lens, leftEyeSpecification: lens, brand: "Oasys", dateIssued: Self.issued,
                                              expirationDate: Self.issued.addingTimeInterval(86_400 * 365), device: nil, metadata: nil)
        let contactsBack = try #require(try roundTrip(contacts))
        #expect(contactsBack.brand == "Oasys" && contactsBack.leftEye == lens && contactsBack.expirationDate == contacts.expirationDate)
        // A forged archive whose lens puts the prism on the other eye does not decode.
        let forged = try forgedArchive(of: glasses, replacing: ["RightEye": #"{"sphere":-1,"prism":{"amount":1,"angle":0,"eye":1}}"#])
        #expect(decoded(HKGlassesPrescription.self, from: forged) == nil)
    }
}
