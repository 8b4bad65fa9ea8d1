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

    /// Whether the sample has no end yet (its end date is `Date.distantFuture`), like an ongoing pregnancy.
    public var hasUndeterminedDuration: Bool { endDate == .distantFuture }
}
