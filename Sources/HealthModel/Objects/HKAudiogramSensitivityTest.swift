public import Foundation

/// One ear's sensitivity at a frequency, as tested.
public final class HKAudiogramSensitivityTest: NSObject, NSCopying, @unchecked Sendable {
    // @unchecked: immutable.
    /// In dBHL: 0 is the baseline; reduced hearing is above it.
    public let sensitivity: HKQuantity
    public let type: HKAudiogramConductionType
    /// Whether the test was masked.
    public let masked: Bool
    public let side: HKAudiogramSensitivityTestSide
    /// The range the sensitivity may have been clamped to, if any.
    public let clampingRange: HKAudiogramSensitivityPointClampingRange?

    /// A test: a sensitivity in dBHL from -20 to 140 (an audiometer's range; HealthKit refuses values "out of range"
    /// without documenting it).
    public init(sensitivity: HKQuantity, type: HKAudiogramConductionType, masked: Bool, side: HKAudiogramSensitivityTestSide,
                clampingRange: HKAudiogramSensitivityPointClampingRange?) throws {
        try HKAudiogramSensitivityTest.checkSensitivity(sensitivity, "sensitivity")
        (self.sensitivity, self.type, self.masked, self.side, self.clampingRange) = (sensitivity, type, masked, side, clampingRange)
        super.init()
    }

    static func checkSensitivity(_ quantity: HKQuantity, _ what: String) throws {
        guard quantity.is(compatibleWith: .decibelHearingLevel()) else {
            throw HKError.invalidArgument("an audiogram's \(what) is in dBHL, not \(quantity.unit.unitString)")
        }
        let value = quantity.doubleValue(for: .decibelHearingLevel())
        guard value.isFinite, (-20.0 ... 140.0).contains(value) else {
            throw HKError.invalidArgument("an audiogram's \(what) must be from -20 to 140 dBHL, not \(value)")
        }
    }

    public func copy(with zone: NSZone? = nil) -> Any { self }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? HKAudiogramSensitivityTest else { return false }
        return other.sensitivity == sensitivity && other.type == type && other.masked == masked && other.side == side
            && other.clampingRange == clampingRange
    }

    public override var hash: Int { sensitivity.hashValue ^ side.rawValue }
}

/// The range within which a sensitivity may have been clamped (for the person's safety, or the hardware's limits).
public final class HKAudiogramSensitivityPointClampingRange: NSObject, NSCopying, @unchecked Sendable {
    // @unchecked: immutable.
    public let lowerBound: HKQuantity?
    public let upperBound: HKQuantity?

    /// A range in dBHL: at least one bound, the lower not above the upper.
    public init(lowerBound: Double?, upperBound: Double?) throws {
        guard lowerBound != nil || upperBound != nil else { throw HKError.invalidArgument("a clamping range needs a lower or an upper bound") }
        let dBHL = HKUnit.decibelHearingLevel()
        self.lowerBound = lowerBound.map { HKQuantity(unit: dBHL, doubleValue: $0) }
        self.upperBound = upperBound.map { HKQuantity(unit: dBHL, doubleValue: $0) }
        if let lower = self.lowerBound { try HKAudiogramSensitivityTest.checkSensitivity(lower, "clamping range's lower bound") }
        if let upper = self.upperBound { try HKAudiogramSensitivityTest.checkSensitivity(upper, "clamping range's upper bound") }
        if let lowerBound, let upperBound, lowerBound > upperBound {
            throw HKError.invalidArgument("a clamping range's lower bound (\(lowerBound)) is above its upper bound (\(upperBound))")
        }
        super.init()
    }

    public func copy(with zone: NSZone? = nil) -> Any { self }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? HKAudiogramSensitivityPointClampingRange else { return false }
        return other.lowerBound == lowerBound && other.upperBound == upperBound
    }

    public override var hash: Int { (lowerBound?.doubleValue ?? 0).hashValue }
}
