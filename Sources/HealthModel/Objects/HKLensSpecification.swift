public import Foundation

/// What every lens of a vision prescription specifies: the sphere (the correction of near- or farsightedness, in
/// diopters; − nearsighted, + farsighted), and optionally the cylinder and axis that correct astigmatism and the add
/// power of a multifocal lens. Abstract, as HealthKit's: use ``HKGlassesLensSpecification`` or
/// ``HKContactsLensSpecification``.
public class HKLensSpecification: NSObject, @unchecked Sendable {
    // @unchecked: immutable.
    /// The sphere, in diopters.
    public let sphere: HKQuantity
    /// The cylinder, in diopters.
    public let cylinder: HKQuantity?
    /// The axis of the cylinder, an angle.
    public let axis: HKQuantity?
    /// The add power, in diopters.
    public let addPower: HKQuantity?

    package init(sphere: HKQuantity, cylinder: HKQuantity?, axis: HKQuantity?, addPower: HKQuantity?) {
        self.sphere = sphere
        self.cylinder = cylinder
        self.axis = axis
        self.addPower = addPower
        super.init()
    }

    /// Throws `HKError(.errorInvalidArgument)` unless sphere, cylinder and add power are finite diopters and the axis a
    /// finite angle, naming the `side` ("the right eye's").
    package func check(side: String) throws {
        try ObjectValidation.checkQuantity(sphere, named: "\(side) sphere", compatibleWith: .diopter())
        try ObjectValidation.checkQuantity(cylinder, named: "\(side) cylinder", compatibleWith: .diopter())
        try ObjectValidation.checkQuantity(axis, named: "\(side) axis", compatibleWith: .degreeAngle())
        try ObjectValidation.checkQuantity(addPower, named: "\(side) add power", compatibleWith: .diopter())
    }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? HKLensSpecification, type(of: other) == type(of: self) else { return false }
        return other.stored == stored
    }

    public override var hash: Int { stored.sphere.hashValue }

    // MARK: Stored form

    /// How the store, archives and the wire's neighbours keep a lens: each quantity as a number in one unit —
    /// diopters (`D`) for sphere, cylinder and add power, degrees for the axis, millimetres for distances, the prism in
    /// prism diopters and degrees.
    package struct Stored: Codable, Sendable, Equatable {
        package var sphere: Double
        package var cylinder: Double?
        package var axis: Double?
        package var addPower: Double?
        package var vertexDistance: Double?
        package var prism: HKVisionPrism.Stored?
        package var farPupillaryDistance: Double?
        package var nearPupillaryDistance: Double?
        package var baseCurve: Double?
        package var diameter: Double?

        package init(sphere: Double, cylinder: Double? = nil, axis: Double? = nil, addPower: Double? = nil, vertexDistance: Double? = nil,
                     prism: HKVisionPrism.Stored? = nil, farPupillaryDistance: Double? = nil, nearPupillaryDistance: Double? = nil,
                     baseCurve: Double? = nil, diameter: Double? = nil) {
            self.sphere = sphere
            self.cylinder = cylinder
            self.axis = axis
            self.addPower = addPower
            self.vertexDistance = vertexDistance
            self.prism = prism
            self.farPupillaryDistance = farPupillaryDistance
            self.nearPupillaryDistance = nearPupillaryDistance
            self.baseCurve = baseCurve
            self.diameter = diameter
        }
    }

    static let millimeter = HKUnit.meterUnit(with: .milli)

    /// This lens's stored form (the subclasses add theirs).
    package var stored: Stored {
        Stored(sphere: sphere.doubleValue(for: .diopter()), cylinder: cylinder?.doubleValue(for: .diopter()),
               axis: axis?.doubleValue(for: .degreeAngle()), addPower: addPower?.doubleValue(for: .diopter()))
    }

    static func quantity(_ value: Double?, _ unit: HKUnit) -> HKQuantity? { value.map { HKQuantity(unit: unit, doubleValue: $0) } }

    package static func json(_ lens: HKLensSpecification?) -> String? {
        guard let lens else { return nil }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return (try? String(decoding: encoder.encode(lens.stored), as: UTF8.self))
    }

    package static func stored(json: String?) throws -> Stored? {
        guard let json else { return nil }
        do { return try JSONDecoder().decode(Stored.self, from: Data(json.utf8)) } catch {
            throw HKError.invalidArgument("an unreadable lens specification: \(error)")
        }
    }
}
