public import Foundation

/// A contacts prescription: the brand fitted, and each eye's lens with its sphere, cylinder, axis, add power, base curve
/// and diameter.
public final class HKContactsPrescription: HKVisionPrescription, @unchecked Sendable {
    /// The right eye's lens.
    public let rightEye: HKContactsLensSpecification?
    /// The left eye's lens.
    public let leftEye: HKContactsLensSpecification?
    /// The brand prescribed after the lens fitting.
    public let brand: String

    package init(rightEye: HKContactsLensSpecification?, leftEye: HKContactsLensSpecification?, brand: String, dateIssued: Date,
                 expirationDate: Date?, uuid: UUID = UUID(), metadata: [String: HKMetadataValue]?,
                 sourceRevision: HKSourceRevision = HKObject.unsavedRevision, device: HKDevice?) {
        self.rightEye = rightEye
        self.leftEye = leftEye
        self.brand = brand
        super.init(type: .contacts, dateIssued: dateIssued, expirationDate: expirationDate, uuid: uuid, metadata: metadata,
                   sourceRevision: sourceRevision, device: device)
    }

    /// Creates a contacts prescription. A quantity in the wrong unit (diopters for sphere, cylinder and add power, an
    /// angle for the axis, lengths for base curve and diameter), an expiration before the issue date or metadata
    /// HealthKit does not allow stops the program, as HealthKit raises; ``validated(rightEyeSpecification:leftEyeSpecification:brand:dateIssued:expirationDate:device:metadata:)``
    /// throws instead.
    public convenience init(rightEyeSpecification: HKContactsLensSpecification?, leftEyeSpecification: HKContactsLensSpecification?,
                            brand: String, dateIssued: Date, expirationDate: Date?, device: HKDevice?, metadata: [String: Any]?) {
        let checked = trapOnInvalidArgument {
            try HKContactsPrescription.check(right: rightEyeSpecification, left: leftEyeSpecification, dateIssued: dateIssued,
                                             expirationDate: expirationDate, metadata: metadata)
        }
        self.init(rightEye: rightEyeSpecification, leftEye: leftEyeSpecification, brand: brand, dateIssued: dateIssued,
                  expirationDate: expirationDate, metadata: checked, device: device)
    }

    /// Creates a contacts prescription, or throws `HKError(.errorInvalidArgument)` naming the problem.
    public static func validated(rightEyeSpecification: HKContactsLensSpecification?, leftEyeSpecification: HKContactsLensSpecification?,
                                 brand: String, dateIssued: Date, expirationDate: Date?, device: HKDevice? = nil,
                                 metadata: [String: Any]? = nil) throws -> HKContactsPrescription {
        let checked = try check(right: rightEyeSpecification, left: leftEyeSpecification, dateIssued: dateIssued,
                                expirationDate: expirationDate, metadata: metadata)
        return HKContactsPrescription(rightEye: rightEyeSpecification, leftEye: leftEyeSpecification, brand: brand, dateIssued: dateIssued,
                                      expirationDate: expirationDate, metadata: checked, device: device)
    }

    private static func check(right: HKContactsLensSpecification?, left: HKContactsLensSpecification?, dateIssued: Date,
                              expirationDate: Date?, metadata: [String: Any]?) throws -> [String: HKMetadataValue]? {
        try check(right: right, left: left)
        return try HKVisionPrescription.check(dateIssued: dateIssued, expirationDate: expirationDate, metadata: metadata)
    }

    /// Each lens checked.
    static func check(right: HKContactsLensSpecification?, left: HKContactsLensSpecification?) throws {
        try right?.check(eye: .right)
        try left?.check(eye: .left)
    }

    override package var lenses: (right: HKLensSpecification?, left: HKLensSpecification?) { (rightEye, leftEye) }
    override package var lensBrand: String? { brand }

    // MARK: NSSecureCoding

    public override func encode(with coder: NSCoder) {
        super.encode(with: coder)
        encodeLenses(with: coder)
    }

    public required convenience init?(coder: NSCoder) {
        guard let decoded = HKVisionPrescription.decodedLenses(coder, "HKContactsPrescription") else { return nil }
        let sample = decoded.sample
        let right = decoded.right.map(HKContactsLensSpecification.init(stored:))
        let left = decoded.left.map(HKContactsLensSpecification.init(stored:))
        guard let brand = decoded.brand, (try? HKContactsPrescription.check(right: right, left: left)) != nil else {
            coder.reportFailure(.invalid("a contacts prescription without a brand or with an invalid lens"), decoding: "HKContactsPrescription")
            return nil
        }
        self.init(rightEye: right, leftEye: left, brand: brand, dateIssued: sample.start,
                  expirationDate: sample.end >= HKVisionPrescription.noExpiration ? nil : sample.end, uuid: sample.object.uuid,
                  metadata: sample.object.metadata, sourceRevision: sample.object.sourceRevision, device: sample.object.device)
    }
}
