import Foundation
import Testing
@testable import HealthModel

/// Units archive their unit string and parse it back; quantities archive their unit and exact value.
@Suite("Unit and quantity coding")
struct UnitCodingTests {
    static let units: [HKUnit] = [
        .count(), .gram(), HKUnit.count().unitDivided(by: .minute()), HKUnit(from: "ml/(kg*min)"), CodingFixtures.glucoseUnit,
        HKUnit.meter().unitRaised(toPower: 2), HKUnit.second().reciprocal(), HKUnit.count().unitDivided(by: .count()),
        HKUnit(from: "kcal/hr"), HKUnit(from: "degC"), HKUnit(from: "degF"), HKUnit(from: "dBASPL"), HKUnit(from: "mmHg"),
        HKUnit(from: "kg*m^2/s^3"), HKUnit(from: "IU/L"), HKUnit(from: "%"),
    ]

    @Test func unitsIncludingCompoundOnesComeBackEqual() throws {
        for unit in Self.units {
            let back = try #require(try roundTrip(unit), "\(unit.unitString)")
            #expect(back == unit && back.unitString == unit.unitString && back.hashValue == unit.hashValue, "\(unit.unitString)")
        }
    }

    @Test func quantitiesComeBackInTheirUnitBitForBit() throws {
        let values = [0.1 + 0.2, -0.0, 5e-324, Double.greatestFiniteMagnitude, 1.0 / 3.0, -273.15, 72]
        for unit in Self.units {
            for value in values {
                let quantity = HKQuantity(unit: unit, doubleValue: value)
                let back = try #require(try roundTrip(quantity))
                #expect(identical(back, quantity), "\(value) \(unit.unitString)")
            }
        }
    }

    @Test func aUnitStringThatDoesNotParseDoesNotDecode() throws {
        for text in ["kg/m/s", "", "furlong", "mmol<-1>/L", "m^99999"] {
            let data = try forgedArchive(of: HKUnit.gram(), replacing: ["unitString": text])
            #expect(decoded(HKUnit.self, from: data) == nil, "\(text)")
        }
    }

    @Test func aQuantityWithoutItsUnitOrValueDoesNotDecode() throws {
        let quantity = HKQuantity(unit: .gram(), doubleValue: 3)
        #expect(decoded(HKQuantity.self, from: try forgedArchive(of: quantity, removing: ["unit"])) == nil)
        #expect(decoded(HKQuantity.self, from: try forgedArchive(of: quantity, removing: ["doubleValue"])) == nil)
    }

    @Test func aQuantityWhoseUnitIsAnotherKindOfObjectDoesNotDecode() throws {
        let quantity = HKQuantity(unit: .gram(), doubleValue: 3)
        let data = try forgedArchive(of: quantity, replacing: ["unit": HKQuantity(unit: .gram(), doubleValue: 1)])
        #expect(decoded(HKQuantity.self, from: data) == nil)
        let badUnit = try forgedArchive(of: quantity, replacing: ["unit": try forgedUnit("kg/m/s")])
        #expect(decoded(HKQuantity.self, from: badUnit) == nil)
    }

    @Test func copyingAUnitOrQuantityGivesItself() {
        let unit = HKUnit(from: "count/min")
        let quantity = HKQuantity(unit: unit, doubleValue: 72)
        #expect(unit.copy() as? HKUnit === unit)
        #expect(quantity.copy() as? HKQuantity === quantity)
    }

    /// An object that archives as an HKUnit with this (possibly bad) unit string.
    private func forgedUnit(_ text: String) throws -> some NSCoding {
        ForgedUnit(text: text)
    }
}

/// Archives as an `HKUnit` with any unit string, to nest a bad unit inside another object's archive.
private final class ForgedUnit: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }
    let text: String
    init(text: String) { self.text = text }
    required init?(coder: NSCoder) { nil }
    override var classForKeyedArchiver: AnyClass? { HKUnit.self }
    override var classForCoder: AnyClass { HKUnit.self }
    func encode(with coder: NSCoder) { coder.encode(text, forKey: "unitString") }
}
