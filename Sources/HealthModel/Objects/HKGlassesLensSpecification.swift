public import Foundation

/// One lens of a glasses prescription: the ``HKLensSpecification`` values, and the vertex distance (between the back
/// of the lens and the eye), the prism and the far and near pupillary distances, each optional.
public final class HKGlassesLensSpecification: HKLensSpecification, NSSecureCoding, NSCopying, @unchecked Sendable {
    public static var supportsSecureCoding: Bool { true }

    /// The distance between the back of the lens and the eye (a length).
    public let vertexDistance: HKQuantity?
    /// The prism that corrects eye misalignment.
    public let prism: HKVisionPrism?
    /// The pupillary distance when looking at a far target (a length).
    public let farPupillaryDistance: HKQuantity?
    /// The pupillary distance when looking at a near target (a length).
    public let nearPupillaryDistance: HKQuantity?

    /// A glasses lens. Nothing is checked here; the prescription that holds it checks its units, as HealthKit does.
    public init(sphere: HKQuantity, cylinder: HKQuantity?, axis: HKQuantity?, addPower: HKQuantity?, vertexDistance: HKQuantity?,
                prism: HKVisionPrism?, farPupillaryDistance: HKQuantity?, nearPupillaryDistance: HKQuantity?) {
        self.vertexDistance = vertexDistance
        self.prism = prism
        self.farPupillaryDistance = farPupillaryDistance
        self.nearPupillaryDistance = nearPupillaryDistance
        super.init(sphere: sphere, cylinder: cylinder, axis: axis, addPower: addPower)
    }

    /// The common checks, then lengths for the distances and a prism made for this `eye`.
    func check(eye: HKVisionEye) throws {
        let side = eye == .left ? "the left eye's" : "the right eye's"
        try check(side: side)
        try ObjectValidation.checkQuantity(vertexDistance, named: "\(side) vertex distance", compatibleWith: .meter())
        try ObjectValidation.checkQuantity(farPupillaryDistance, named: "\(side) far pupillary distance", compatibleWith: .meter())
        try ObjectValidation.checkQuantity(nearPupillaryDistance, named: "\(side) near pupillary distance", compatibleWith: .meter())
        if let prism, prism.eye != eye {
            throw HKError.invalidArgument("\(side) prism is made for the \(prism.eye == .left ? "left" : "right") eye")
        }
    }

    public func copy(with zone: NSZone? = nil) -> Any { self }

    override package var stored: Stored {
        var stored = super.stored
        stored.vertexDistance = vertexDistance?.doubleValue(for: Self.millimeter)
        stored.prism = prism?.stored
        stored.farPupillaryDistance = farPupillaryDistance?.doubleValue(for: Self.millimeter)
        stored.nearPupillaryDistance = nearPupillaryDistance?.doubleValue(for: Self.millimeter)
        return stored
    }

    /// A glasses lens from its stored form (its prism checked as it is made).
    package convenience init(stored: Stored) throws {
        self.init(sphere: HKQuantity(unit: .diopter(), doubleValue: stored.sphere), cylinder: Self.quantity(stored.cylinder, .diopter()),
                  axis: Self.quantity(stored.axis, .degreeAngle()), addPower: Self.quantity(stored.addPower, .diopter()),
                  vertexDistance: Self.quantity(stored.vertexDistance, Self.millimeter), prism: try stored.prism.map(HKVisionPrism.init(stored:)),
                  farPupillaryDistance: Self.quantity(stored.farPupillaryDistance, Self.millimeter),
                  nearPupillaryDistance: Self.quantity(stored.nearPupillaryDistance, Self.millimeter))
    }

    // MARK: NSSecureCoding

    public func encode(with coder: NSCoder) {
        coder.encode(HKLensSpecification.json(self), forKey: "lens")
    }

    public required convenience init?(coder: NSCoder) {
        guard let stored = try? HKLensSpecification.stored(json: coder.decodeObject(of: NSString.self, forKey: "lens") as String?),
              let lens = try? HKGlassesLensSpecification(stored: stored) else {
            coder.reportFailure(.invalid("a glasses lens that does not read back"), decoding: "HKGlassesLensSpecification")
            return nil
        }
        self.init(sphere: lens.sphere, cylinder: lens.cylinder, axis: lens.axis, addPower: lens.addPower, vertexDistance: lens.vertexDistance,
                  prism: lens.prism, farPupillaryDistance: lens.farPupillaryDistance, nearPupillaryDistance: lens.nearPupillaryDistance)
    }
}
