public import Foundation

/// The abstract base of data recorded over an interval of time: its type, start date and end date.
///
/// ```swift
/// if sample.hasUndeterminedDuration { print("still ongoing") }
/// ```
public class HKSample: HKObject, @unchecked Sendable {
    /// The sample's type.
    public let sampleType: HKSampleType
    /// When the sample starts.
    public let startDate: Date
    /// When the sample ends; equal to ``startDate`` for an instant.
    public let endDate: Date

    package init(
        sampleType: HKSampleType, start: Date, end: Date,
        uuid: UUID, metadata: [String: HKMetadataValue]?, sourceRevision: HKSourceRevision, device: HKDevice?
    ) {
        self.sampleType = sampleType
        self.startDate = start
        self.endDate = end
        super.init(uuid: uuid, metadata: metadata, sourceRevision: sourceRevision, device: device)
    }

    /// Encodes the sample's type, start and end after the object's fields.
    public override func encode(with coder: NSCoder) {
        super.encode(with: coder)
        CodedSampleFields.encode(self, with: coder)
    }

    /// `HKSample` is abstract: each concrete class decodes itself, and decoding this one fails.
    public required convenience init?(coder: NSCoder) {
        coder.reportFailure(.invalid("\(Self.self) is abstract; only concrete sample classes decode"), decoding: "\(Self.self)")
        return nil
    }

    /// Whether the sample has no end yet (its end date is `Date.distantFuture`), like an ongoing pregnancy.
    public var hasUndeterminedDuration: Bool { endDate == .distantFuture }
}
