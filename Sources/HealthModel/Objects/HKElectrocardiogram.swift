public import Foundation

/// An electrocardiogram: a single-lead recording from Apple Watch's ECG app, with its classification. Apps read them
/// (with read permission for `HKObjectType.electrocardiogramType()`) and cannot write them, as in HealthKit; the
/// person's store gets them from an Apple Health export's `electrocardiograms/*.csv`. Read the voltages with
/// `HKElectrocardiogramQuery` or `HKElectrocardiogramQueryDescriptor`.
///
/// ```swift
/// if ecg.classification == .atrialFibrillation { … }
/// ecg.samplingFrequency?.doubleValue(for: .hertz())   // 512
/// ```
///
/// `NSSecureCoding`, as HealthKit's: its conclusion, counts, dates and object fields (the voltages stay in the store).
public final class HKElectrocardiogram: HKSample, @unchecked Sendable {
    /// The leads a recording can hold.
    public enum Lead: Int, Sendable, CaseIterable {
        case appleWatchSimilarToLeadI = 1
    }

    /// What the ECG app concluded.
    public enum Classification: Int, Sendable, CaseIterable {
        case notSet = 0
        case sinusRhythm = 1
        case atrialFibrillation = 2
        case inconclusiveLowHeartRate = 3
        case inconclusiveHighHeartRate = 4
        case inconclusivePoorReading = 5
        case inconclusiveOther = 6
        case unrecognized = 100
    }

    /// Whether the person reported symptoms with the recording.
    public enum SymptomsStatus: Int, Sendable, CaseIterable {
        case notSet = 0
        case none = 1
        case present = 2
    }

    /// One measurement of the recording: its time since the start and the voltage on each lead.
    public final class VoltageMeasurement: NSObject, NSCopying, @unchecked Sendable {
        // @unchecked: immutable.
        /// Seconds from the recording's start.
        public let timeSinceSampleStart: TimeInterval
        private let microvolts: Double

        package init(timeSinceSampleStart: TimeInterval, microvolts: Double) {
            self.timeSinceSampleStart = timeSinceSampleStart
            self.microvolts = microvolts
            super.init()
        }

        /// The voltage on `lead` at this time (in microvolts as recorded), or nil for a lead the recording lacks.
        public func quantity(for lead: Lead) -> HKQuantity? {
            lead == .appleWatchSimilarToLeadI ? HKQuantity(unit: .voltUnit(with: .micro), doubleValue: microvolts) : nil
        }

        public func copy(with zone: NSZone? = nil) -> Any { self }

        public override func isEqual(_ object: Any?) -> Bool {
            guard let other = object as? VoltageMeasurement else { return false }
            return other.timeSinceSampleStart == timeSinceSampleStart && other.microvolts == microvolts
        }

        public override var hash: Int { timeSinceSampleStart.hashValue ^ microvolts.hashValue }
    }

    /// How many voltage measurements the recording holds.
    public let numberOfVoltageMeasurements: Int
    /// Measurements per second.
    public let samplingFrequency: HKQuantity?
    public let classification: Classification
    /// The average heart rate over the recording, when known.
    public let averageHeartRate: HKQuantity?
    public let symptomsStatus: SymptomsStatus
    /// The voltages in microvolts, when the sample was read from an export in this process and not yet stored; a sample
    /// read from the store leaves them there, for the electrocardiogram query.
    package let voltages: [Double]?

    package init(
        start: Date, end: Date, voltages: [Double]? = nil, numberOfVoltageMeasurements: Int, samplingFrequency: HKQuantity?, classification: Classification,
        averageHeartRate: HKQuantity?, symptomsStatus: SymptomsStatus,
        uuid: UUID = UUID(), metadata: [String: HKMetadataValue]?, sourceRevision: HKSourceRevision, device: HKDevice?
    ) {
        self.numberOfVoltageMeasurements = numberOfVoltageMeasurements
        self.samplingFrequency = samplingFrequency
        self.classification = classification
        self.averageHeartRate = averageHeartRate
        self.symptomsStatus = symptomsStatus
        self.voltages = voltages
        super.init(sampleType: HKObjectType.electrocardiogramType(), start: start, end: end, uuid: uuid, metadata: metadata,
                   sourceRevision: sourceRevision, device: device)
    }

    // MARK: NSSecureCoding

    private enum Key {
        static let count = "numberOfVoltageMeasurements", frequency = "samplingFrequency", classification = "classification"
        static let heartRate = "averageHeartRate", symptoms = "symptomsStatus"
    }

    public override func encode(with coder: NSCoder) {
        super.encode(with: coder)
        coder.encode(numberOfVoltageMeasurements, forKey: Key.count)
        coder.encodeIfPresent(samplingFrequency, forKey: Key.frequency)
        coder.encodeEnum(classification, forKey: Key.classification)
        coder.encodeIfPresent(averageHeartRate, forKey: Key.heartRate)
        coder.encodeEnum(symptomsStatus, forKey: Key.symptoms)
    }

    public required convenience init?(coder: NSCoder) {
        guard case let (sample, count, frequency, classification, heartRate, symptoms)? = coder.decodeValid("HKElectrocardiogram", {
            (try CodedSampleFields(coder: coder), try coder.decodeRequiredInteger(forKey: Key.count),
             try coder.decodeIfPresent(HKQuantity.self, forKey: Key.frequency),
             try coder.decodeEnum(Classification.self, forKey: Key.classification),
             try coder.decodeIfPresent(HKQuantity.self, forKey: Key.heartRate),
             try coder.decodeEnum(SymptomsStatus.self, forKey: Key.symptoms))
        }) else { return nil }
        guard count >= 0 else {
            coder.reportFailure(.invalid("an electrocardiogram holds \(count) measurements"), decoding: "HKElectrocardiogram")
            return nil
        }
        self.init(start: sample.start, end: sample.end, numberOfVoltageMeasurements: count, samplingFrequency: frequency,
                  classification: classification, averageHeartRate: heartRate, symptomsStatus: symptoms, uuid: sample.object.uuid,
                  metadata: sample.object.metadata, sourceRevision: sample.object.sourceRevision, device: sample.object.device)
    }
}
