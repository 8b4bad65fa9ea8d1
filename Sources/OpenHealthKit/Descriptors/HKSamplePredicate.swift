public import Foundation

/// A sample type with an optional predicate, typed by the kind of sample it finds; the building block of
/// the query descriptors.
///
/// ```swift
/// let recent = HKSamplePredicate.quantitySample(type: HKQuantityType(.heartRate),
///                                              predicate: HKQuery.predicateForSamples(withStart: start, end: nil))
/// ```
public struct HKSamplePredicate<Sample: HKSample>: Hashable, @unchecked Sendable {
    // @unchecked: NSPredicate is not Sendable on Linux; the predicates HKQuery makes are immutable.

    public let sampleType: HKSampleType
    public let nsPredicate: NSPredicate?

    init(sampleType: HKSampleType, predicate: NSPredicate?) {
        self.sampleType = sampleType
        self.nsPredicate = predicate
    }
}

extension HKSamplePredicate where Sample == HKSample {
    public static func sample(type: HKSampleType, predicate: NSPredicate? = nil) -> HKSamplePredicate<HKSample> {
        .init(sampleType: type, predicate: predicate)
    }
}

extension HKSamplePredicate where Sample == HKQuantitySample {
    public static func quantitySample(type: HKQuantityType, predicate: NSPredicate? = nil) -> HKSamplePredicate<HKQuantitySample> {
        .init(sampleType: type, predicate: predicate)
    }
}

extension HKSamplePredicate where Sample == HKCategorySample {
    public static func categorySample(type: HKCategoryType, predicate: NSPredicate? = nil) -> HKSamplePredicate<HKCategorySample> {
        .init(sampleType: type, predicate: predicate)
    }
}

extension HKSamplePredicate where Sample == HKCorrelation {
    public static func correlation(type: HKCorrelationType, predicate: NSPredicate? = nil) -> HKSamplePredicate<HKCorrelation> {
        .init(sampleType: type, predicate: predicate)
    }
}

extension HKSamplePredicate where Sample == HKWorkout {
    public static func workout(_ predicate: NSPredicate? = nil) -> HKSamplePredicate<HKWorkout> {
        .init(sampleType: HKObjectType.workoutType(), predicate: predicate)
    }
}

extension HKSamplePredicate where Sample == HKWorkoutRoute {
    public static func workoutRoute(_ predicate: NSPredicate? = nil) -> HKSamplePredicate<HKWorkoutRoute> {
        .init(sampleType: HKSeriesType.workoutRoute(), predicate: predicate)
    }
}

extension HKSamplePredicate where Sample == HKHeartbeatSeriesSample {
    public static func heartbeatSeries(_ predicate: NSPredicate? = nil) -> HKSamplePredicate<HKHeartbeatSeriesSample> {
        .init(sampleType: HKSeriesType.heartbeat(), predicate: predicate)
    }
}

extension HKSamplePredicate where Sample == HKElectrocardiogram {
    public static func electrocardiogram(_ predicate: NSPredicate? = nil) -> HKSamplePredicate<HKElectrocardiogram> {
        .init(sampleType: HKObjectType.electrocardiogramType(), predicate: predicate)
    }
}

extension HKSamplePredicate where Sample == HKStateOfMind {
    /// States of mind matching `predicate` (e.g. `HKQuery.predicateForStatesOfMind(with: .dailyMood)`).
    public static func stateOfMind(_ predicate: NSPredicate? = nil) -> HKSamplePredicate<HKStateOfMind> {
        .init(sampleType: HKObjectType.stateOfMindType(), predicate: predicate)
    }
}

extension HKSamplePredicate where Sample == HKAudiogramSample {
    /// Audiograms matching `predicate`.
    public static func audiogram(_ predicate: NSPredicate? = nil) -> HKSamplePredicate<HKAudiogramSample> {
        .init(sampleType: HKObjectType.audiogramSampleType(), predicate: predicate)
    }
}

extension HKSamplePredicate where Sample == HKVisionPrescription {
    /// Vision prescriptions matching `predicate` that the app may read (object by object: those the person gave it, and
    /// those it saved unless the person turned them off).
    public static func visionPrescription(_ predicate: NSPredicate? = nil) -> HKSamplePredicate<HKVisionPrescription> {
        .init(sampleType: HKObjectType.visionPrescriptionType(), predicate: predicate)
    }
}

extension HKSamplePredicate where Sample == HKGAD7Assessment {
    /// GAD-7 results matching `predicate`.
    public static func gad7Assessment(_ predicate: NSPredicate? = nil) -> HKSamplePredicate<HKGAD7Assessment> {
        .init(sampleType: HKScoredAssessmentType(.GAD7), predicate: predicate)
    }
}

extension HKSamplePredicate where Sample == HKPHQ9Assessment {
    /// PHQ-9 results matching `predicate`.
    public static func phq9Assessment(_ predicate: NSPredicate? = nil) -> HKSamplePredicate<HKPHQ9Assessment> {
        .init(sampleType: HKScoredAssessmentType(.PHQ9), predicate: predicate)
    }
}

extension HKSamplePredicate where Sample == HKClinicalRecord {
    public static func clinicalRecord(type: HKClinicalType, predicate: NSPredicate? = nil) -> HKSamplePredicate<HKClinicalRecord> {
        .init(sampleType: type, predicate: predicate)
    }
}
