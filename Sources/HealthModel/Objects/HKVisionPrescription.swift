public import Foundation

/// A vision prescription: glasses or contacts, the date it was issued and the date it expires (if it does). Its start
/// date is the issue date and its end date the expiration date (`Date.distantFuture` when it does not expire), as in
/// HealthKit. ``HKGlassesPrescription`` and ``HKContactsPrescription`` add each eye's lens.
///
/// Apps save prescriptions with share permission for `HKObjectType.visionPrescriptionType()`, but reading them is
/// authorized object by object: `requestPerObjectReadAuthorization(for:predicate:)` puts the prescriptions before the
/// person, who chooses which ones the app may read. By default an app reads the prescriptions it saved itself; the
/// person may turn those off too.
///
/// `NSSecureCoding`, as HealthKit's.
public class HKVisionPrescription: HKSample, @unchecked Sendable {
    /// Glasses or contacts.
    public let prescriptionType: HKVisionPrescriptionType

    /// The date the prescription was issued (the start date).
    public var dateIssued: Date { startDate }

    /// The date the prescription expires, or nil when it does not.
    public var expirationDate: Date? { endDate >= HKVisionPrescription.noExpiration ? nil : endDate }

    /// The end date of a prescription that does not expire.
    package static let noExpiration = Date.distantFuture

    package init(type: HKVisionPrescriptionType, dateIssued: Date, expirationDate: Date?, uuid: UUID = UUID(),
                 metadata: [String: HKMetadataValue]?, sourceRevision: HKSourceRevision = HKObject.unsavedRevision, device: HKDevice?) {
        prescriptionType = type
        super.init(sampleType: HKObjectType.visionPrescriptionType(), start: dateIssued, end: expirationDate ?? HKVisionPrescription.noExpiration,
                   uuid: uuid, metadata: metadata, sourceRevision: sourceRevision, device: device)
    }

    /// Creates a prescription without lens details. An expiration before the issue date or metadata HealthKit does not
    /// allow stops the program, as HealthKit raises; ``validated(type:dateIssued:expirationDate:device:metadata:)`` throws
    /// instead.
    public convenience init(type: HKVisionPrescriptionType, dateIssued: Date, expirationDate: Date?, device: HKDevice?,
                            metadata: [String: Any]?) {
        let checked = trapOnInvalidArgument { try HKVisionPrescription.check(dateIssued: dateIssued, expirationDate: expirationDate, metadata: metadata) }
        self.init(type: type, dateIssued: dateIssued, expirationDate: expirationDate, metadata: checked, device: device)
    }

    /// Creates a prescription without lens details, or throws `HKError(.errorInvalidArgument)` naming the problem.
    public static func validated(type: HKVisionPrescriptionType, dateIssued: Date, expirationDate: Date?, device: HKDevice? = nil,
                                 metadata: [String: Any]? = nil) throws -> HKVisionPrescription {
        let checked = try check(dateIssued: dateIssued, expirationDate: expirationDate, metadata: metadata)
        return HKVisionPrescription(type: type, dateIssued: dateIssued, expirationDate: expirationDate, metadata: checked, device: device)
    }

    /// The dates (the expiration not before the issue date) and the metadata.
    package static func check(dateIssued: Date, expirationDate: Date?, metadata: [String: Any]?) throws -> [String: HKMetadataValue]? {
        if let expirationDate, expirationDate < dateIssued {
            throw HKError.invalidArgument(
                "a vision prescription expires (\(expirationDate.formatted(.iso8601))) before it was issued (\(dateIssued.formatted(.iso8601)))")
        }
        try ObjectValidation.checkInterval(start: dateIssued, end: expirationDate ?? noExpiration, of: "a vision prescription")
        return try MetadataValidation.validate(metadata)
    }

    /// A prescription as the store keeps it: glasses lenses make an ``HKGlassesPrescription``, a brand an
    /// ``HKContactsPrescription``, neither a plain one; checked as the initializers check them.
    package static func restored(type: HKVisionPrescriptionType, brand: String?, rightEye: HKLensSpecification.Stored?,
                                 leftEye: HKLensSpecification.Stored?, dateIssued: Date, expirationDate: Date?, uuid: UUID,
                                 metadata: [String: HKMetadataValue]?, sourceRevision: HKSourceRevision, device: HKDevice?) throws
        -> HKVisionPrescription
    {
        _ = try check(dateIssued: dateIssued, expirationDate: expirationDate, metadata: nil)
        if type == .glasses, brand != nil { throw HKError.invalidArgument("a glasses prescription has no brand (contacts have one)") }
        switch type {
        case .glasses where rightEye != nil || leftEye != nil:
            let right = try rightEye.map(HKGlassesLensSpecification.init(stored:))
            let left = try leftEye.map(HKGlassesLensSpecification.init(stored:))
            try HKGlassesPrescription.check(right: right, left: left)
            return HKGlassesPrescription(rightEye: right, leftEye: left, dateIssued: dateIssued, expirationDate: expirationDate, uuid: uuid,
                                         metadata: metadata, sourceRevision: sourceRevision, device: device)
        case .contacts where brand != nil:
            let right = rightEye.map(HKContactsLensSpecification.init(stored:))
            let left = leftEye.map(HKContactsLensSpecification.init(stored:))
            try HKContactsPrescription.check(right: right, left: left)
            return HKContactsPrescription(rightEye: right, leftEye: left, brand: brand ?? "", dateIssued: dateIssued, expirationDate: expirationDate,
                                          uuid: uuid, metadata: metadata, sourceRevision: sourceRevision, device: device)
        default:
            guard rightEye == nil, leftEye == nil else {
                throw HKError.invalidArgument("a \(type == .contacts ? "contacts prescription's lenses need its brand" : "prescription's lenses need its type")")
            }
            return HKVisionPrescription(type: type, dateIssued: dateIssued, expirationDate: expirationDate, uuid: uuid, metadata: metadata,
                                        sourceRevision: sourceRevision, device: device)
        }
    }

    /// The right and left lenses (nil for a plain prescription).
    package var lenses: (right: HKLensSpecification?, left: HKLensSpecification?) { (nil, nil) }

    /// The contacts brand (nil but for contacts).
    package var lensBrand: String? { nil }

    // MARK: NSSecureCoding

    private static let typeKey = "PrescriptionType"

    public override func encode(with coder: NSCoder) {
        super.encode(with: coder)
        coder.encode(prescriptionType.rawValue, forKey: HKVisionPrescription.typeKey)
    }

    public required init?(coder: NSCoder) {
        guard case let (sample, type)? = coder.decodeValid("HKVisionPrescription", {
            (try CodedSampleFields(coder: coder), try coder.decodeEnum(HKVisionPrescriptionType.self, forKey: HKVisionPrescription.typeKey))
        }) else { return nil }
        prescriptionType = type
        super.init(sampleType: HKObjectType.visionPrescriptionType(), start: sample.start, end: sample.end, uuid: sample.object.uuid,
                   metadata: sample.object.metadata, sourceRevision: sample.object.sourceRevision, device: sample.object.device)
    }

    /// The sample fields, type and lenses of a subclass's archive, checked.
    static func decodedLenses(_ coder: NSCoder, _ what: String)
        -> (sample: CodedSampleFields, right: HKLensSpecification.Stored?, left: HKLensSpecification.Stored?, brand: String?)?
    {
        guard case let (sample, right, left, brand)? = coder.decodeValid(what, {
            (try CodedSampleFields(coder: coder),
             try HKLensSpecification.stored(json: try coder.decodeIfPresent(String.self, forKey: "RightEye")),
             try HKLensSpecification.stored(json: try coder.decodeIfPresent(String.self, forKey: "LeftEye")),
             try coder.decodeIfPresent(String.self, forKey: "Brand"))
        }) else { return nil }
        return (sample, right, left, brand)
    }

    func encodeLenses(with coder: NSCoder) {
        if let right = HKLensSpecification.json(lenses.right) { coder.encode(right, forKey: "RightEye") }
        if let left = HKLensSpecification.json(lenses.left) { coder.encode(left, forKey: "LeftEye") }
        if let lensBrand { coder.encode(lensBrand, forKey: "Brand") }
    }
}
