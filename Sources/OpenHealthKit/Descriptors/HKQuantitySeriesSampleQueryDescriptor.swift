public import Foundation

/// An `HKQuantitySeriesSampleQuery` with Swift concurrency: a sequence of the individual quantities of the
/// matching samples, each with its interval (and its sample, with `.includeSample`). The sequence ends after the
/// last one.
///
/// ```swift
/// let descriptor = HKQuantitySeriesSampleQueryDescriptor(predicate: .quantitySample(type: HKQuantityType(.heartRate)),
///                                                        options: .includeSample)
/// for try await entry in descriptor.results(for: store) { print(entry.dateInterval.start, entry.quantity) }
/// ```
public struct HKQuantitySeriesSampleQueryDescriptor: HKAsyncSequenceQuery, @unchecked Sendable {
    // @unchecked: HKSamplePredicate holds an immutable NSPredicate.

    public var predicate: HKSamplePredicate<HKQuantitySample>
    public var options: Options

    /// What each result carries and in which order they come.
    public struct Options: OptionSet, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// Each result also holds its sample.
        public static let includeSample = Options(rawValue: 1 << 0)
        /// Quantities come sample by sample, in order of the samples' start dates.
        public static let orderByQuantitySampleStartDate = Options(rawValue: 1 << 1)
    }

    public init(predicate: HKSamplePredicate<HKQuantitySample>, options: Options = []) {
        self.predicate = predicate
        self.options = options
    }

    /// One quantity: its value, its date interval, and (with `.includeSample`) the sample holding it.
    public struct Result: Hashable, @unchecked Sendable {
        // @unchecked: the sample is immutable.
        public let quantity: HKQuantity
        public let dateInterval: DateInterval
        public let sample: HKQuantitySample?

        public static func == (lhs: Result, rhs: Result) -> Bool {
            lhs.quantity == rhs.quantity && lhs.dateInterval == rhs.dateInterval && lhs.sample?.uuid == rhs.sample?.uuid
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(dateInterval)
            hasher.combine(sample?.uuid)
        }
    }

    /// The quantities, then the end of the sequence.
    public struct Results: AsyncSequence, Sendable {
        public typealias Element = Result
        let live: LiveResults<Result>

        /// Steps through the results as they come.
        public struct Iterator: AsyncIteratorProtocol {
            var base: AsyncThrowingStream<Result, any Error>.AsyncIterator
            public mutating func next() async throws -> Result? { try await base.next() }
        }

        public func makeAsyncIterator() -> Iterator { Iterator(base: live.makeStream().makeAsyncIterator()) }
    }

    public func results(for healthStore: HKHealthStore) -> Results {
        let descriptor = self
        return Results(live: LiveResults { continuation in
            let includeSample = descriptor.options.contains(.includeSample)
            for entry in try await HKQuantitySeriesSampleQuery.entries(type: descriptor.predicate.sampleType,
                                                                 predicate: descriptor.predicate.nsPredicate,
                                                                 bySample: descriptor.options.contains(.orderByQuantitySampleStartDate),
                                                                 on: healthStore) {
                guard !Task.isCancelled else { return }
                continuation.yield(Result(quantity: entry.quantity, dateInterval: entry.interval, sample: includeSample ? entry.sample : nil))
            }
        })
    }
}
