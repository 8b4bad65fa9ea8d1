public import Foundation

/// The sensitivities measured at one frequency.
public final class HKAudiogramSensitivityPoint: NSObject, NSSecureCoding, @unchecked Sendable {
    // @unchecked: immutable.
    public static var supportsSecureCoding: Bool { true }

    /// The frequency, in hertz.
    public let frequency: HKQuantity
    /// The tests at this frequency.
    public let tests: [HKAudiogramSensitivityTest]

    var hertz: Double { frequency.doubleValue(for: .hertz()) }

    /// A point from its tests: a frequency in hertz above 0, and at most one test per ear and masking.
    public init(frequency: HKQuantity, tests: [HKAudiogramSensitivityTest]) throws {
        guard frequency.is(compatibleWith: .hertz()) else {
            throw HKError.invalidArgument("an audiogram's frequency is in hertz, not \(frequency.unit.unitString)")
        }
        let hertz = frequency.doubleValue(for: .hertz())
        guard hertz.isFinite, hertz > 0 else { throw HKError.invalidArgument("an audiogram's frequency must be above 0 Hz, not \(hertz)") }
        var seen = Set<[Int]>()
        for test in tests where !seen.insert([test.side.rawValue, test.type.rawValue, test.masked ? 1 : 0]).inserted {
            throw HKError.invalidArgument("a sensitivity point at \(hertz) Hz has two \(test.masked ? "masked" : "unmasked") tests of the \(test.side == .left ? "left" : "right") ear")
        }
        self.frequency = frequency
        self.tests = tests
        super.init()
    }

    /// A point with the unmasked air-conduction sensitivity of each ear (HealthKit's form before iOS 18.1).
    @available(*, deprecated, message: "Use init(frequency:tests:)")
    public convenience init(frequency: HKQuantity, leftEarSensitivity: HKQuantity?, rightEarSensitivity: HKQuantity?) throws {
        var tests: [HKAudiogramSensitivityTest] = []
        if let leftEarSensitivity {
            tests.append(try HKAudiogramSensitivityTest(sensitivity: leftEarSensitivity, type: .air, masked: false, side: .left, clampingRange: nil))
        }
        if let rightEarSensitivity {
            tests.append(try HKAudiogramSensitivityTest(sensitivity: rightEarSensitivity, type: .air, masked: false, side: .right, clampingRange: nil))
        }
        try self.init(frequency: frequency, tests: tests)
    }

    /// The left ear's sensitivity: its unmasked test, else its masked one.
    @available(*, deprecated, message: "Use tests")
    public var leftEarSensitivity: HKQuantity? { sensitivity(of: .left) }
    /// The right ear's sensitivity: its unmasked test, else its masked one.
    @available(*, deprecated, message: "Use tests")
    public var rightEarSensitivity: HKQuantity? { sensitivity(of: .right) }

    private func sensitivity(of side: HKAudiogramSensitivityTestSide) -> HKQuantity? {
        (tests.first { $0.side == side && !$0.masked } ?? tests.first { $0.side == side })?.sensitivity
    }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? HKAudiogramSensitivityPoint else { return false }
        return other.hertz == hertz && other.tests == tests
    }

    public override var hash: Int { hertz.hashValue }

    // MARK: Stored form

    /// How the store, the archive and the wire's neighbours keep points: `[{"f":1000,"t":[{"s":20,"side":0,"m":false,"type":0,"lo":…,"hi":…}]}]`.
    package struct Stored: Codable, Sendable, Equatable {
        package var f: Double
        package var t: [Test]
        package struct Test: Codable, Sendable, Equatable {
            package var s: Double
            package var side: Int
            package var m: Bool
            package var type: Int
            package var lo: Double?
            package var hi: Double?
        }
    }

    package var stored: Stored {
        Stored(f: hertz, t: tests.map { test in
            Stored.Test(s: test.sensitivity.doubleValue(for: .decibelHearingLevel()), side: test.side.rawValue, m: test.masked,
                        type: test.type.rawValue, lo: test.clampingRange?.lowerBound?.doubleValue(for: .decibelHearingLevel()),
                        hi: test.clampingRange?.upperBound?.doubleValue(for: .decibelHearingLevel()))
        })
    }

    /// A point from its stored form, checked as the initializers check it.
    package convenience init(stored: Stored) throws {
        let dBHL = HKUnit.decibelHearingLevel()
        let tests = try stored.t.map { test -> HKAudiogramSensitivityTest in
            guard let side = HKAudiogramSensitivityTestSide(rawValue: test.side) else {
                throw HKError.invalidArgument("\(test.side) is not an HKAudiogramSensitivityTestSide (0 left, 1 right)")
            }
            guard let type = HKAudiogramConductionType(rawValue: test.type) else {
                throw HKError.invalidArgument("\(test.type) is not an HKAudiogramConductionType (0 air)")
            }
            let range = test.lo == nil && test.hi == nil ? nil : try HKAudiogramSensitivityPointClampingRange(lowerBound: test.lo, upperBound: test.hi)
            return try HKAudiogramSensitivityTest(sensitivity: HKQuantity(unit: dBHL, doubleValue: test.s), type: type, masked: test.m,
                                                  side: side, clampingRange: range)
        }
        try self.init(frequency: HKQuantity(unit: .hertz(), doubleValue: stored.f), tests: tests)
    }

    package static func json(_ points: [HKAudiogramSensitivityPoint]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return (try? String(decoding: encoder.encode(points.map(\.stored)), as: UTF8.self)) ?? "[]"
    }

    /// Points from their stored JSON; throws on anything the initializers would refuse.
    package static func points(json: String) throws -> [HKAudiogramSensitivityPoint] {
        let stored: [Stored]
        do { stored = try JSONDecoder().decode([Stored].self, from: Data(json.utf8)) } catch {
            throw HKError.invalidArgument("unreadable sensitivity points: \(error)")
        }
        return try stored.map(HKAudiogramSensitivityPoint.init(stored:))
    }

    // MARK: NSSecureCoding

    public func encode(with coder: NSCoder) {
        coder.encode(HKAudiogramSensitivityPoint.json([self]), forKey: "point")
    }

    public required convenience init?(coder: NSCoder) {
        guard let text = coder.decodeObject(of: NSString.self, forKey: "point") as String?,
              let point = try? HKAudiogramSensitivityPoint.points(json: text).first else {
            coder.reportFailure(.invalid("a sensitivity point that does not read back"), decoding: "HKAudiogramSensitivityPoint")
            return nil
        }
        try? self.init(frequency: point.frequency, tests: point.tests)
    }
}
