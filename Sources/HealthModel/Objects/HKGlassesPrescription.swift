public import Foundation

/// A glasses prescription: each eye's lens (at least one), with its sphere, cylinder, axis, add power, vertex
/// distance, prism and pupillary distances.
///
/// ```swift
/// let right = HKGlassesLensSpecification(sphere: HKQuantity(unit: .diopter(), doubleValue: -0.75),
///     cylinder: HKQuantity(unit: .diopter(), doubleValue: -0.5), axis: HKQuantity(unit: .degreeAngle(), doubleValue: 155),
///     addPower: nil, vertexDistance: nil, prism: nil, farPupillaryDistance: nil, nearPupillaryDistance: nil)
/// let glasses = HKGlassesPrescription(rightEyeSpecification: right, leftEyeSpecification: nil,
///                                     dateIssued: issued, expirationDate: expires, device: nil, metadata: nil)
/// ```
public final class HKGlassesPrescription: HKVisionPrescription, @unchecked Sendable {
    /// The right eye's lens.
    public let rightEye: HKGlassesLensSpecification?
    /// The left eye's lens.
    public let leftEye: HKGlassesLensSpecification?

    package init(rightEye: HKGlassesLensSpecification?, leftEye: HKGlassesLensSpecification?, dateIssued: Date, expirationDate: Date?,
                 uuid: UUID = UUID(), metadata: [String: HKMetadataValue]?, sourceRevision: HKSourceRevision = HKObject.unsavedRevision,
                 device: HKDevice?) {
        self.rightEye = rightEye
        self.leftEye = leftEye
        super.init(type: .glasses, dateIssued: dateIssued, expirationDate: expirationDate, uuid: uuid, metadata: metadata,
                   sourceRevision: sourceRevision, device: device)
    }

    /// Creates a glasses prescription. No lens, a quantity in the wrong unit (diopters for sphere, cylinder and add
    /// power, an angle for the axis, lengths for distances), a prism made for the other eye, an expiration before the
    /// issue date or metadata HealthKit does not allow stops the program, as HealthKit raises; ``validated(rightEyeSpecification:leftEyeSpecification:dateIssued:expirationDate:device:metadata:)``
    /// throws instead.
    public convenience init(rightEyeSpecification: HKGlassesLensSpecification?, leftEyeSpecification: HKGlassesLensSpecification?,
                            dateIssued: Date, expirationDate: Date?, device: HKDevice?, metadata: [String: Any]?) {
        let checked = trapOnInvalidArgument {
            try HKGlassesPrescription.check(right: rightEyeSpecification, left: leftEyeSpecification, dateIssued: dateIssued,
                                            expirationDate: expirationDate, metadata: metadata)
        }
        self.init(rightEye: rightEyeSpecification, leftEye: leftEyeSpecification, dateIssued: dateIssued, expirationDate: expirationDate,
                  metadata: checked, device: device)
    }

    /// Creates a glasses prescription, or throws `HKError(.errorInvalidArgument)` naming the problem.
    public static func validated(rightEyeSpecification: HKGlassesLensSpecification?, leftEyeSpecification: HKGlassesLensSpecification?,
                                 dateIssued: Date, expirationDate: Date?, device: HKDevice? = nil,
                                 metadata: [String: Any]? = nil) throws -> HKGlassesPrescription {
        let checked = try check(right: rightEyeSpecification, left: leftEyeSpecification, dateIssued: dateIssued,
                                expirationDate: expirationDate, metadata: metadata)
        return HKGlassesPrescription(rightEye: rightEyeSpecification, leftEye: leftEyeSpecification, dateIssued: dateIssued,
                                     expirationDate: expirationDate, metadata: checked, device: device)
    }

    private static func check(right: HKGlassesLensSpecification?, left: HKGlassesLensSpecification?, dateIssued: Date,
                              expirationDate: Date?, metadata: [String: Any]?) throws -> [String: HKMetadataValue]? {
        try check(right: right, left: left)
        return try HKVisionPrescription.check(dateIssued: dateIssued, expirationDate: expirationDate, metadata: metadata)
    }

    /// At least one lens, each checked for its eye.
    static func check(right: HKGlassesLensSpecification?, left: HKGlassesLensSpecification?) throws {
        guard right != nil || left != nil else {
            throw HKError.invalidArgument("a glasses prescription needs a lens (a sphere) for the right or the left eye")
        }
        try right?.check(eye: .right)
        try left?.check(eye: .left)
    }

    override package var lenses: (right: HKLensSpecification?, left: HKLensSpecification?) { (rightEye, leftEye) }

    // MARK: NSSecureCoding

    public override func encode(with coder: NSCoder) {
        super.encode(with: coder)
        encodeLenses(with: coder)
    }

    public required convenience init?(coder: NSCoder) {
        guard let decoded = HKVisionPrescription.decodedLenses(coder, "HKGlassesPrescription") else { return nil }
        let sample = decoded.sample
        let right: HKGlassesLensSpecification?, left: HKGlassesLensSpecification?
        do {
            right = try decoded.right.map(HKGlassesLensSpecification.init(stored:))
            left = try decoded.left.map(HKGlassesLensSpecification.init(stored:))
            try HKGlassesPrescription.check(right: right, left: left)
        } catch {
            coder.reportFailure(.invalid("a glasses prescription without a valid lens"), decoding: "HKGlassesPrescription")
            return nil
        }
        self.init(rightEye: right, leftEye: left, dateIssued: sample.start,
                  expirationDate: sample.end >= HKVisionPrescription.noExpiration ? nil : sample.end, uuid: sample.object.uuid,
                  metadata: sample.object.metadata, sourceRevision: sample.object.sourceRevision, device: sample.object.device)
    }
}
