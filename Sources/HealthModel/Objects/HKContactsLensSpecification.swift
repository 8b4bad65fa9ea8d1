public import Foundation

/// One lens of a contacts prescription: the ``HKLensSpecification`` values, and the base curve (the curvature of the
/// back of the lens) and diameter, each optional.
public final class HKContactsLensSpecification: HKLensSpecification, NSSecureCoding, NSCopying, @unchecked Sendable {
    public static var supportsSecureCoding: Bool { true }

    /// The curvature of the back surface of the lens (a length).
    public let baseCurve: HKQuantity?
    /// The width of the lens from edge to edge (a length).
    public let diameter: HKQuantity?

    /// A contact lens. Nothing is checked here; the prescription that holds it checks its units, as HealthKit does.
    public init(sphere: HKQuantity, cylinder: HKQuantity?, axis: HKQuantity?, addPower: HKQuantity?, baseCurve: HKQuantity?,
                diameter: HKQuantity?) {
        self.baseCurve = baseCurve
        self.diameter = diameter
        super.init(sphere: sphere, cylinder: cylinder, axis: axis, addPower: addPower)
    }

    /// The common checks, then lengths for the base curve and diameter.
    func check(eye: HKVisionEye) throws {
        let side = eye == .left ? "the left eye's" : "the right eye's"
        try check(side: side)
        try ObjectValidation.checkQuantity(baseCurve, named: "\(side) base curve", compatibleWith: .meter())
        try ObjectValidation.checkQuantity(diameter, named: "\(side) diameter", compatibleWith: .meter())
    }

    public func copy(with zone: NSZone? = nil) -> Any { self }

    override package var stored: Stored {
        var stored = super.stored
        stored.baseCurve = baseCurve?.doubleValue(for: Self.millimeter)
        stored.diameter = diameter?.doubleValue(for: Self.millimeter)
        return stored
    }

    package convenience init(stored: Stored) {
        self.init(sphere: HKQuantity(unit: .diopter(), doubleValue: stored.sphere), cylinder: Self.quantity(stored.cylinder, .diopter()),
                  axis: Self.quantity(stored.axis, .degreeAngle()), addPower: Self.quantity(stored.addPower, .diopter()),
                  baseCurve: Self.quantity(stored.baseCurve, Self.millimeter), diameter: Self.quantity(stored.diameter, Self.millimeter))
    }

    // MARK: NSSecureCoding

    public func encode(with coder: NSCoder) {
        coder.encode(HKLensSpecification.json(self), forKey: "lens")
    }

    public required convenience init?(coder: NSCoder) {
        guard let stored = try? HKLensSpecification.stored(json: coder.decodeObject(of: NSString.self, forKey: "lens") as String?) else {
            coder.reportFailure(.invalid("a contact lens that does not read back"), decoding: "HKContactsLensSpecification")
            return nil
        }
        self.init(stored: stored)
    }
}
