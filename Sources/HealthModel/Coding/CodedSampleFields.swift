package import Foundation

/// The fields every ``HKSample`` archives on top of its object's — its sample type, start and end — encoded by
/// `HKSample.encode(with:)` and decoded here for the concrete classes' `init?(coder:)`. An end before the start is an
/// error. Classes whose type is fixed (workouts, routes, CDA documents, verifiable records) do not read the type back.
package struct CodedSampleFields {
    private enum Key {
        static let sampleType = "sampleType"
        static let startDate = "startDate"
        static let endDate = "endDate"
    }

    package let object: CodedObjectFields
    package let start: Date
    package let end: Date

    package static func encode(_ sample: HKSample, with coder: NSCoder) {
        coder.encode(sample.sampleType, forKey: Key.sampleType)
        coder.encodeDate(sample.startDate, forKey: Key.startDate)
        coder.encodeDate(sample.endDate, forKey: Key.endDate)
    }

    package init(coder: NSCoder) throws {
        object = try CodedObjectFields(coder: coder)
        start = try coder.decodeDate(forKey: Key.startDate)
        end = try coder.decodeDate(forKey: Key.endDate)
        guard end >= start else {
            throw ArchiveError.invalid("the sample ends (\(end.formatted(.iso8601))) before it starts (\(start.formatted(.iso8601)))")
        }
    }

    /// The archived sample type, which must be a `T`: a type of another kind is an error.
    package static func sampleType<T: HKSampleType>(_ type: T.Type, from coder: NSCoder) throws -> T {
        try coder.decode(T.self, forKey: Key.sampleType)
    }
}
