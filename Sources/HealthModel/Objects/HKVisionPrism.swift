public import Foundation

/// The prism of one glasses lens, which corrects eye misalignment: an amount in prism diopters and the direction of
/// its base, given either in polar form (amount and angle) or in rectangular form (a vertical part based up or down
/// and a horizontal part based in or out). Either form gives the other, as HealthKit computes it: the angle is rounded
/// to a whole degree in 0..<360, and the horizontal base is "in" (towards the nose) when the horizontal part points to
/// the right eye's 0° side.
///
/// ```swift
/// let prism = HKVisionPrism(amount: HKQuantity(unit: .prismDiopter(), doubleValue: 0.25),
///                           angle: HKQuantity(unit: .degreeAngle(), doubleValue: 15), eye: .right)
/// prism.horizontalBase   // .in
/// ```
public final class HKVisionPrism: NSObject, NSSecureCoding, NSCopying, @unchecked Sendable {
    // @unchecked: immutable.
    public static var supportsSecureCoding: Bool { true }

    /// The amount, in prism diopters (polar form).
    public let amount: HKQuantity
    /// The direction of the base (polar form).
    public let angle: HKQuantity
    /// The vertical part, in prism diopters (rectangular form).
    public let verticalAmount: HKQuantity
    /// The horizontal part, in prism diopters (rectangular form).
    public let horizontalAmount: HKQuantity
    /// Up or down.
    public let verticalBase: HKPrismBase
    /// In or out.
    public let horizontalBase: HKPrismBase
    /// The eye whose lens this prism is for.
    public let eye: HKVisionEye

    /// A prism from its amount and angle. An amount not in prism diopters or an angle not an angle stops the program,
    /// as HealthKit raises; ``validated(amount:angle:eye:)`` throws instead.
    public convenience init(amount: HKQuantity, angle: HKQuantity, eye: HKVisionEye) {
        self.init(checked: trapOnInvalidArgument { try HKVisionPrism.polar(amount: amount, angle: angle, eye: eye) })
    }

    /// A prism from its vertical and horizontal parts and their bases. Parts not in prism diopters stop the program, as
    /// HealthKit raises; ``validated(verticalAmount:verticalBase:horizontalAmount:horizontalBase:eye:)`` throws instead.
    public convenience init(verticalAmount: HKQuantity, verticalBase: HKPrismBase, horizontalAmount: HKQuantity,
                            horizontalBase: HKPrismBase, eye: HKVisionEye) {
        self.init(checked: trapOnInvalidArgument {
            try HKVisionPrism.rectangular(verticalAmount: verticalAmount, verticalBase: verticalBase, horizontalAmount: horizontalAmount,
                                          horizontalBase: horizontalBase, eye: eye)
        })
    }

    /// A prism from its amount and angle, or `HKError(.errorInvalidArgument)` naming the problem.
    public static func validated(amount: HKQuantity, angle: HKQuantity, eye: HKVisionEye) throws -> HKVisionPrism {
        HKVisionPrism(checked: try polar(amount: amount, angle: angle, eye: eye))
    }

    /// A prism from its rectangular parts, or `HKError(.errorInvalidArgument)` naming the problem.
    public static func validated(verticalAmount: HKQuantity, verticalBase: HKPrismBase, horizontalAmount: HKQuantity,
                                 horizontalBase: HKPrismBase, eye: HKVisionEye) throws -> HKVisionPrism {
        HKVisionPrism(checked: try rectangular(verticalAmount: verticalAmount, verticalBase: verticalBase,
                                               horizontalAmount: horizontalAmount, horizontalBase: horizontalBase, eye: eye))
    }

    /// Both forms, computed and checked.
    private struct Forms {
        var amount: HKQuantity, angle: HKQuantity, vertical: HKQuantity, horizontal: HKQuantity
        var verticalBase: HKPrismBase, horizontalBase: HKPrismBase, eye: HKVisionEye
    }

    private init(checked forms: Forms) {
        amount = forms.amount
        angle = forms.angle
        verticalAmount = forms.vertical
        horizontalAmount = forms.horizontal
        verticalBase = forms.verticalBase
        horizontalBase = forms.horizontalBase
        eye = forms.eye
        super.init()
    }

    private static func polar(amount: HKQuantity, angle: HKQuantity, eye: HKVisionEye) throws -> Forms {
        try ObjectValidation.checkQuantity(amount, named: "a prism's amount", compatibleWith: .prismDiopter())
        try ObjectValidation.checkQuantity(angle, named: "a prism's angle", compatibleWith: .radianAngle())
        let diopters = amount.doubleValue(for: .prismDiopter())
        let radians = angle.doubleValue(for: .radianAngle())
        let horizontal = diopters * cos(radians), vertical = diopters * sin(radians)
        // HealthKit's rule: base in when the horizontal part is positive for the right eye, or not for the left.
        let horizontalBase: HKPrismBase = (eye == .right) == (horizontal > 0) ? .in : .out
        return Forms(amount: amount, angle: angle, vertical: HKQuantity(unit: .prismDiopter(), doubleValue: abs(vertical)),
                     horizontal: HKQuantity(unit: .prismDiopter(), doubleValue: abs(horizontal)),
                     verticalBase: vertical > 0 ? .up : .down, horizontalBase: horizontalBase, eye: eye)
    }

    private static func rectangular(verticalAmount: HKQuantity, verticalBase: HKPrismBase, horizontalAmount: HKQuantity,
                                    horizontalBase: HKPrismBase, eye: HKVisionEye) throws -> Forms {
        try ObjectValidation.checkQuantity(verticalAmount, named: "a prism's vertical amount", compatibleWith: .prismDiopter())
        try ObjectValidation.checkQuantity(horizontalAmount, named: "a prism's horizontal amount", compatibleWith: .prismDiopter())
        var vertical = verticalAmount.doubleValue(for: .prismDiopter())
        var horizontal = horizontalAmount.doubleValue(for: .prismDiopter())
        if (eye == .left && horizontalBase == .in) || (eye == .right && horizontalBase == .out) { horizontal = -horizontal }
        if verticalBase == .down { vertical = -vertical }
        var degrees = (atan2(vertical, horizontal) * 180 / .pi).rounded()
        if degrees < 0 { degrees += 360 }
        return Forms(amount: HKQuantity(unit: .prismDiopter(), doubleValue: (vertical * vertical + horizontal * horizontal).squareRoot()),
                     angle: HKQuantity(unit: .degreeAngle(), doubleValue: degrees), vertical: verticalAmount, horizontal: horizontalAmount,
                     verticalBase: verticalBase, horizontalBase: horizontalBase, eye: eye)
    }

    public func copy(with zone: NSZone? = nil) -> Any { self }

    /// Equal amounts and angles, as HealthKit compares prisms.
    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? HKVisionPrism else { return false }
        return other.amount == amount && other.angle == angle && other.eye == eye
    }

    public override var hash: Int { eye.hashValue }

    // MARK: Stored form

    /// How the store and archives keep a prism: its polar form (prism diopters, degrees) and eye, as HealthKit archives it.
    package struct Stored: Codable, Sendable, Equatable {
        package var amount: Double
        package var angle: Double
        package var eye: Int

        package init(amount: Double, angle: Double, eye: Int) {
            self.amount = amount
            self.angle = angle
            self.eye = eye
        }
    }

    package var stored: Stored {
        Stored(amount: amount.doubleValue(for: .prismDiopter()), angle: angle.doubleValue(for: .degreeAngle()), eye: eye.rawValue)
    }

    package convenience init(stored: Stored) throws {
        guard let eye = HKVisionEye(rawValue: stored.eye) else {
            throw HKError.invalidArgument("\(stored.eye) is not an HKVisionEye (1 left, 2 right)")
        }
        self.init(checked: try HKVisionPrism.polar(amount: HKQuantity(unit: .prismDiopter(), doubleValue: stored.amount),
                                                   angle: HKQuantity(unit: .degreeAngle(), doubleValue: stored.angle), eye: eye))
    }

    // MARK: NSSecureCoding

    public func encode(with coder: NSCoder) {
        coder.encode(amount, forKey: "Amount")
        coder.encode(angle, forKey: "Base")
        coder.encode(eye.rawValue, forKey: "Eye")
    }

    public required convenience init?(coder: NSCoder) {
        guard let amount = coder.decodeObject(of: HKQuantity.self, forKey: "Amount"),
              let angle = coder.decodeObject(of: HKQuantity.self, forKey: "Base"),
              let eye = HKVisionEye(rawValue: coder.decodeInteger(forKey: "Eye")),
              let forms = try? HKVisionPrism.polar(amount: amount, angle: angle, eye: eye) else {
            coder.reportFailure(.invalid("a prism without a valid amount, angle and eye"), decoding: "HKVisionPrism")
            return nil
        }
        self.init(checked: forms)
    }
}
