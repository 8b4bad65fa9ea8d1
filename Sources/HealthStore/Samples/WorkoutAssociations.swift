import Foundation
import GRDB
package import HealthModel

extension SampleStore {
    /// Associates quantity and category samples with a workout `app` saved (`HKHealthStore.add(_:to:)`), saving
    /// those not yet in the store as `app`'s own — all in one transaction, or nothing. The workout must be saved
    /// first — or, with `savingWorkout` (`HKWorkoutBuilder.finishWorkout()`), saved in the same transaction; samples
    /// already saved must be `app`'s own; new samples need share permission for their types. Another source's sample
    /// of a type the app may not read is refused as saving it would be ("already saved"), never as another source's.
    package func associate(_ samples: [HKSample], with workout: HKWorkout, app: AppManifest, savingWorkout: Bool = false) throws {
        if try authorization.isGuestMode() {
            throw HKError(.errorNotPermissibleForGuestUserMode, "adding samples to a workout is not permitted in guest mode")
        }
        for sample in samples where !(sample is HKQuantitySample || sample is HKCategorySample) {
            throw HKError.invalidArgument(
                "only quantity and category samples can be added to a workout, not \(sample.sampleType.identifier) \(sample.uuid)")
        }
        for sample in samples where Self.workoutEffortTypes.contains(sample.sampleType.identifier) {
            throw HKError.invalidArgument(
                "a workout effort score (\(sample.uuid)) rates a workout through relateWorkoutEffortSample(_:with:activity:), not as one of its samples")
        }
        guard Set(samples.map(\.uuid)).count == samples.count else {
            throw HKError.invalidArgument("the samples to add to workout \(workout.uuid) hold one sample twice")
        }
        let revision = SampleStore.revision(for: app)
        let saved = try database.read { db in
            try String.fetchSet(db, sql: "SELECT uuid FROM sample WHERE uuid IN (\(databaseQuestionMarks(count: samples.count)))",
                                arguments: StatementArguments(samples.map(\.uuid.uuidString)))
        }
        let new = samples.filter { !saved.contains($0.uuid.uuidString) }
        for type in Set(new.map(\.sampleType)) { try checkShare(type: type, app: app) }
        if savingWorkout { try checkShare(type: workout.sampleType, app: app) }
        // The types whose other sources' samples the app may see: only for those may it hear that a sample is
        // another source's.
        var readable = Set<String>()
        for type in Set(samples.map(\.sampleType.identifier)) where try readVisibility(app: app.bundleIdentifier, type: type).canReadOthers {
            readable.insert(type)
        }
        try write { db in
            if savingWorkout {
                let sourceId = try SampleStore.sourceId(for: revision.source, in: db, create: true)!
                try SampleStore.recordSpans([workout], in: db)
                try insert(workout, sourceId: sourceId, revision: revision, correlationId: nil,
                           savedAt: Date().timeIntervalSinceReferenceDate, in: db)
            }
            guard let workoutRow = try Row.fetchOne(db, sql: "SELECT id, sourceId FROM sample WHERE uuid = ? AND kind = 3",
                                                    arguments: [workout.uuid.uuidString]) else {
                throw HKError.invalidArgument("workout \(workout.uuid) is not in the store; save it before adding samples to it")
            }
            let ownSource = try SampleStore.sourceId(for: revision.source, in: db, create: true)!
            guard workoutRow["sourceId"] as Int64 == ownSource else {
                throw HKError(.errorAuthorizationDenied, "\(app.bundleIdentifier) may add samples only to workouts it saved")
            }
            try SampleStore.recordSpans(new, in: db)
            let now = Date().timeIntervalSinceReferenceDate
            for sample in new { try insert(sample, sourceId: ownSource, revision: revision, correlationId: nil, savedAt: now, in: db) }
            let link = try db.cachedStatement(sql: """
                INSERT OR IGNORE INTO workoutAssociation (workoutId, sampleId) SELECT ?, id FROM sample WHERE uuid = ?
                """)
            for sample in samples {
                let owner = try Int64.fetchOne(db, sql: "SELECT sourceId FROM sample WHERE uuid = ?", arguments: [sample.uuid.uuidString])
                guard owner == ownSource else {
                    guard readable.contains(sample.sampleType.identifier) else {
                        // What saving it would answer: the app cannot read the type, so it learns no more than that.
                        throw HKError.invalidArgument("object \(sample.uuid) is already saved")
                    }
                    throw HKError(.errorAuthorizationDenied,
                                  "\(app.bundleIdentifier) may add only its own samples to a workout; \(sample.uuid) was saved by another source")
                }
                try link.execute(arguments: [workoutRow["id"] as Int64, sample.uuid.uuidString])
            }
        }
        changes.post(Set(new.map(\.sampleType.identifier) + (savingWorkout ? [workout.sampleType.identifier] : [])))
    }
}
