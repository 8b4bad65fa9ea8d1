public import Foundation

/// The result of a scored questionnaire (iOS 18): ``HKGAD7Assessment`` or ``HKPHQ9Assessment``. Apps save them with share
/// permission for their `HKScoredAssessmentType` and read them with read permission, like any sample; each is at one
/// moment (its start and end dates are equal).
public class HKScoredAssessment: HKSample, @unchecked Sendable {
    /// The sum of the answers' points.
    public let score: Int
    /// The answers' raw values, in question order.
    package let answerRawValues: [Int]

    package init(type: HKScoredAssessmentType, date: Date, answerRawValues: [Int], score: Int, uuid: UUID,
                 metadata: [String: HKMetadataValue]?, sourceRevision: HKSourceRevision, device: HKDevice?) {
        self.answerRawValues = answerRawValues
        self.score = score
        super.init(sampleType: type, start: date, end: date, uuid: uuid, metadata: metadata, sourceRevision: sourceRevision, device: device)
    }

    /// The questionnaire a type identifier names, its answers checked: the right number of answers, each one the
    /// questionnaire takes at its place. Throws `HKError(.errorInvalidArgument)` naming the problem.
    package static func make(type: HKScoredAssessmentType, date: Date, answerRawValues: [Int], uuid: UUID = UUID(),
                             metadata: [String: HKMetadataValue]?, sourceRevision: HKSourceRevision = HKObject.unsavedRevision,
                             device: HKDevice?) throws -> HKScoredAssessment {
        switch type.identifier {
        case HKScoredAssessmentTypeIdentifier.GAD7.rawValue:
            let answers = try HKGAD7Assessment.checkAnswers(answerRawValues)
            return HKGAD7Assessment(date: date, answers: answers, uuid: uuid, metadata: metadata, sourceRevision: sourceRevision, device: device)
        case HKScoredAssessmentTypeIdentifier.PHQ9.rawValue:
            let answers = try HKPHQ9Assessment.checkAnswers(answerRawValues)
            return HKPHQ9Assessment(date: date, answers: answers, uuid: uuid, metadata: metadata, sourceRevision: sourceRevision, device: device)
        default:
            throw HKError.invalidArgument("\(type.identifier) is not a scored assessment OpenHealthKit knows (GAD-7 and PHQ-9 are)")
        }
    }

    /// Each answer's raw value, checked against `E` and, for question `index`, `allowed`.
    static func answers<E: RawRepresentable>(_ raw: [Int], count: Int, of name: String, as type: E.Type,
                                             allowed: (Int, E) -> Bool = { _, _ in true }) throws -> [E] where E.RawValue == Int {
        guard raw.count == count else {
            throw HKError.invalidArgument("a \(name) assessment has exactly \(count) answers, one per question, not \(raw.count)")
        }
        return try raw.enumerated().map { index, value in
            guard let answer = E(rawValue: value), allowed(index, answer) else {
                throw HKError.invalidArgument("\(value) is not an answer question \(index + 1) of a \(name) assessment takes")
            }
            return answer
        }
    }

    // MARK: NSSecureCoding

    static let answersKey = "answers"

    /// The abstract class does not decode: an archive holds a GAD-7 or a PHQ-9.
    public required init?(coder: NSCoder) {
        coder.reportFailure(.invalid("HKScoredAssessment is abstract; archive an HKGAD7Assessment or HKPHQ9Assessment"),
                            decoding: "HKScoredAssessment")
        return nil
    }

    public override func encode(with coder: NSCoder) {
        super.encode(with: coder)
        coder.encode(answerRawValues.map(String.init).joined(separator: ","), forKey: HKScoredAssessment.answersKey)
    }

    /// The sample fields and answers of an archive, for the subclasses' `init?(coder:)`.
    static func decoded(_ coder: NSCoder, _ what: String) -> (CodedSampleFields, [Int])? {
        guard case let (sample, text)? = coder.decodeValid(what, {
            (try CodedSampleFields(coder: coder), try coder.decode(String.self, forKey: answersKey))
        }) else { return nil }
        let raw = text.isEmpty ? [] : text.split(separator: ",").map { Int($0) }
        guard sample.start == sample.end, raw.allSatisfy({ $0 != nil }) else {
            coder.reportFailure(.invalid("a \(what) over \(sample.start)–\(sample.end) with answers \"\(text)\""), decoding: what)
            return nil
        }
        return (sample, raw.map { $0! })
    }
}

/// A GAD-7 anxiety questionnaire: seven answers, each 0 to 3 points; the score (0–21) sets the risk.
///
/// ```swift
/// let gad7 = HKGAD7Assessment(date: .now, answers: [.severalDays, .notAtAll, .notAtAll, .severalDays,
///                                                   .notAtAll, .moreThanHalfTheDays, .notAtAll])
/// gad7.score   // 5
/// gad7.risk    // .mild
/// ```
public final class HKGAD7Assessment: HKScoredAssessment, @unchecked Sendable {
    /// The seven answers, in question order.
    public let answers: [Answer]
    /// The risk the score falls in: 0–4 none to minimal, 5–9 mild, 10–14 moderate, 15–21 severe.
    public var risk: Risk {
        switch score {
        case ..<5: .noneToMinimal
        case ..<10: .mild
        case ..<15: .moderate
        default: .severe
        }
    }

    package init(date: Date, answers: [Answer], uuid: UUID, metadata: [String: HKMetadataValue]?, sourceRevision: HKSourceRevision,
                 device: HKDevice?) {
        self.answers = answers
        super.init(type: HKScoredAssessmentType(.GAD7), date: date, answerRawValues: answers.map(\.rawValue),
                   score: answers.reduce(0) { $0 + $1.rawValue }, uuid: uuid, metadata: metadata, sourceRevision: sourceRevision, device: device)
    }

    /// Creates a GAD-7 result. Other than seven answers, or metadata HealthKit does not allow, stops the program, as
    /// HealthKit raises; ``validated(date:answers:metadata:)`` throws instead.
    public convenience init(date: Date, answers: [Answer], metadata: [String: Any]? = nil) {
        let checked = trapOnInvalidArgument { () -> [String: HKMetadataValue]? in
            _ = try HKGAD7Assessment.checkAnswers(answers.map(\.rawValue))
            return try MetadataValidation.validate(metadata)
        }
        self.init(date: date, answers: answers, uuid: UUID(), metadata: checked, sourceRevision: HKObject.unsavedRevision, device: nil)
    }

    /// Creates a GAD-7 result, or throws `HKError(.errorInvalidArgument)` naming the problem.
    public static func validated(date: Date, answers: [Answer], metadata: [String: Any]? = nil) throws -> HKGAD7Assessment {
        _ = try checkAnswers(answers.map(\.rawValue))
        return HKGAD7Assessment(date: date, answers: answers, uuid: UUID(), metadata: try MetadataValidation.validate(metadata),
                                sourceRevision: HKObject.unsavedRevision, device: nil)
    }

    package static func checkAnswers(_ raw: [Int]) throws -> [Answer] {
        try answers(raw, count: 7, of: "GAD-7", as: Answer.self)
    }

    public required convenience init?(coder: NSCoder) {
        guard let (sample, raw) = HKScoredAssessment.decoded(coder, "HKGAD7Assessment") else { return nil }
        guard let answers = try? HKGAD7Assessment.checkAnswers(raw) else {
            coder.reportFailure(.invalid("GAD-7 answers \(raw)"), decoding: "HKGAD7Assessment")
            return nil
        }
        self.init(date: sample.start, answers: answers, uuid: sample.object.uuid, metadata: sample.object.metadata,
                  sourceRevision: sample.object.sourceRevision, device: sample.object.device)
    }
}

/// A PHQ-9 depression questionnaire: nine answers, each 0 to 3 points; the ninth may be ``Answer/preferNotToAnswer``
/// (no points). The score (0–27) sets the risk.
public final class HKPHQ9Assessment: HKScoredAssessment, @unchecked Sendable {
    /// The nine answers, in question order.
    public let answers: [Answer]
    /// The risk the score falls in: 0–4 none to minimal, 5–9 mild, 10–14 moderate, 15–19 moderately severe, 20–27 severe.
    public var risk: Risk {
        switch score {
        case ..<5: .noneToMinimal
        case ..<10: .mild
        case ..<15: .moderate
        case ..<20: .moderatelySevere
        default: .severe
        }
    }

    package init(date: Date, answers: [Answer], uuid: UUID, metadata: [String: HKMetadataValue]?, sourceRevision: HKSourceRevision,
                 device: HKDevice?) {
        self.answers = answers
        super.init(type: HKScoredAssessmentType(.PHQ9), date: date, answerRawValues: answers.map(\.rawValue),
                   score: answers.reduce(0) { $0 + ($1 == .preferNotToAnswer ? 0 : $1.rawValue) }, uuid: uuid, metadata: metadata,
                   sourceRevision: sourceRevision, device: device)
    }

    /// Creates a PHQ-9 result. Other than nine answers, "prefer not to answer" before the ninth question, or metadata
    /// HealthKit does not allow, stops the program, as HealthKit raises; ``validated(date:answers:metadata:)`` throws.
    public convenience init(date: Date, answers: [Answer], metadata: [String: Any]? = nil) {
        let checked = trapOnInvalidArgument { () -> [String: HKMetadataValue]? in
            _ = try HKPHQ9Assessment.checkAnswers(answers.map(\.rawValue))
            return try MetadataValidation.validate(metadata)
        }
        self.init(date: date, answers: answers, uuid: UUID(), metadata: checked, sourceRevision: HKObject.unsavedRevision, device: nil)
    }

    /// Creates a PHQ-9 result, or throws `HKError(.errorInvalidArgument)` naming the problem.
    public static func validated(date: Date, answers: [Answer], metadata: [String: Any]? = nil) throws -> HKPHQ9Assessment {
        _ = try checkAnswers(answers.map(\.rawValue))
        return HKPHQ9Assessment(date: date, answers: answers, uuid: UUID(), metadata: try MetadataValidation.validate(metadata),
                                sourceRevision: HKObject.unsavedRevision, device: nil)
    }

    package static func checkAnswers(_ raw: [Int]) throws -> [Answer] {
        // "Prefer not to answer" is for the ninth question only (HealthKit's header).
        try answers(raw, count: 9, of: "PHQ-9", as: Answer.self) { index, answer in answer != .preferNotToAnswer || index == 8 }
    }

    public required convenience init?(coder: NSCoder) {
        guard let (sample, raw) = HKScoredAssessment.decoded(coder, "HKPHQ9Assessment") else { return nil }
        guard let answers = try? HKPHQ9Assessment.checkAnswers(raw) else {
            coder.reportFailure(.invalid("PHQ-9 answers \(raw)"), decoding: "HKPHQ9Assessment")
            return nil
        }
        self.init(date: sample.start, answers: answers, uuid: sample.object.uuid, metadata: sample.object.metadata,
                  sourceRevision: sample.object.sourceRevision, device: sample.object.device)
    }
}
