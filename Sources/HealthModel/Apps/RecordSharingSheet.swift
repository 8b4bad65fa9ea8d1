public import Foundation

/// What the person is asked when an app runs a verifiable-record query: which of the matching records (SMART Health
/// Cards) to share with it, this once.
public struct RecordSharingSheet: Sendable {
    /// The app asking.
    public let app: AppManifest
    /// The matching records, each with whether its signature was checked against an issuer the person trusts.
    public let records: [Candidate]

    public struct Candidate: Sendable {
        public let record: HKVerifiableClinicalRecord
        public let verified: Bool
        public init(record: HKVerifiableClinicalRecord, verified: Bool) {
            self.record = record
            self.verified = verified
        }
    }

    public init(app: AppManifest, records: [Candidate]) {
        self.app = app
        self.records = records
    }

    /// The person's answer.
    public enum Response: Sendable, Hashable {
        /// Share these records (by UUID); the others stay private. An empty set shares nothing.
        case share(Set<UUID>)
        /// The person closed the sheet: the query fails with `errorUserCanceled`.
        case cancelled
    }
}

extension HKAuthorizationPresenter {
    /// Presenters that do not implement record sharing never share: the query fails with `errorUserCanceled`.
    public func present(_ sheet: RecordSharingSheet) async -> RecordSharingSheet.Response { .cancelled }

    /// Presenters that do not implement per-object authorization close the sheet: nothing changes, and the request
    /// fails with `errorUserCanceled`.
    public func present(_ sheet: ObjectAuthorizationSheet) async -> ObjectAuthorizationSheet.Response { .dismissed }
}
