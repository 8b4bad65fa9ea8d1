package import Foundation
import GRDB
package import HealthModel

extension SampleStore {
    /// The types of workout effort scores: samples of these are saved only by relating them to a workout.
    package static let workoutEffortTypes: Set<String> = [
        HKQuantityTypeIdentifier.workoutEffortScore.rawValue, HKQuantityTypeIdentifier.estimatedWorkoutEffortScore.rawValue,
    ]

    /// Relates a workout effort score to a workout, or to one of its activities (`HKHealthStore.relateWorkoutEffortSample`),
    /// saving the sample as `app`'s own when it is not in the store yet — as in HealthKit, the only way to save one. The
    /// sample must be a `workoutEffortScore` or `estimatedWorkoutEffortScore` from 0 to 10 (`appleEffortScore`), the app
    /// must be allowed to share its type, and the workout must be one the app may see: one it may not is answered as one
    /// that is not in the store. A sample rates one workout; relating it again to the same one changes nothing.
    package func relateWorkoutEffort(_ sample: HKSample, workout: UUID, activity: UUID?, app: AppManifest) throws {
        if try authorization.isGuestMode() {
            throw HKError(.errorNotPermissibleForGuestUserMode, "relating workout effort is not permitted in guest mode")
        }
        let type = sample.sampleType.identifier
        guard let score = sample as? HKQuantitySample, Self.workoutEffortTypes.contains(type) else {
            throw HKError.invalidArgument(
                "only workoutEffortScore and estimatedWorkoutEffortScore samples rate a workout's effort, not \(type) \(sample.uuid)")
        }
        guard score.quantity.is(compatibleWith: .appleEffortScore()) else {
            throw HKError.invalidArgument("a workout effort score is in appleEffortScore, not \(score.quantity)")
        }
        let value = score.quantity.doubleValue(for: .appleEffortScore())
        guard (0...10).contains(value) else {
            throw HKError.invalidArgument("a workout effort score is from 0 to 10, not \(value)")
        }
        try checkShare(type: sample.sampleType, app: app)
        let revision = SampleStore.revision(for: app)
        let workoutVisibility = try readVisibility(app: app.bundleIdentifier, type: HKWorkoutTypeIdentifier)
        let readsOthers = try readVisibility(app: app.bundleIdentifier, type: type).canReadOthers
        let saved = try write { db -> Bool in
            guard let workoutId = try Int64.fetchOne(db, SQLRequest<Int64>(literal: """
                SELECT id FROM sample WHERE uuid = \(workout.uuidString) AND kind = 3 AND \(workoutVisibility.condition())
                """)) else {
                throw HKError.invalidArgument("no workout \(workout) is available to this app; save the workout before relating its effort")
            }
            var activityId: Int64?
            if let activity {
                activityId = try Int64.fetchOne(db, sql: "SELECT id FROM workoutActivity WHERE uuid = ? AND workoutId = ?",
                                                arguments: [activity.uuidString, workoutId])
                guard activityId != nil else { throw HKError.invalidArgument("workout \(workout) has no activity \(activity)") }
            }
            let ownSource = try SampleStore.sourceId(for: revision.source, in: db, create: true)!
            var saving = false
            let sampleId: Int64
            if let row = try Row.fetchOne(db, sql: "SELECT id, sourceId FROM sample WHERE uuid = ?", arguments: [sample.uuid.uuidString]) {
                guard row["sourceId"] as Int64 == ownSource else {
                    // What saving it would answer when the app cannot read the type: it learns no more than that.
                    guard readsOthers else { throw HKError.invalidArgument("object \(sample.uuid) is already saved") }
                    throw HKError(.errorAuthorizationDenied, "\(app.bundleIdentifier) may relate only its own effort scores; \(sample.uuid) was saved by another source")
                }
                sampleId = row["id"]
            } else {
                try SampleStore.recordSpans([sample], in: db)
                try insert(sample, sourceId: ownSource, revision: revision, correlationId: nil, savedAt: Date().timeIntervalSinceReferenceDate, in: db)
                sampleId = try Int64.fetchOne(db, sql: "SELECT id FROM sample WHERE uuid = ?", arguments: [sample.uuid.uuidString])!
                saving = true
            }
            if let related = try Row.fetchOne(db, sql: "SELECT workoutId, activityId FROM workoutEffort WHERE sampleId = ?", arguments: [sampleId]) {
                guard related["workoutId"] as Int64 == workoutId, related["activityId"] as Int64? == activityId else {
                    throw HKError.invalidArgument("effort score \(sample.uuid) already rates another workout or activity; unrelate it first")
                }
                return saving
            }
            try db.execute(sql: "INSERT INTO workoutEffort (sampleId, workoutId, activityId) VALUES (?, ?, ?)",
                           arguments: [sampleId, workoutId, activityId])
            return saving
        }
        if saved { changes.post([type]) }
    }

    /// Ends the relationship of the app's own effort score `sample` with `workout` (and `activity`, when given); the
    /// sample stays. One that is not related so — or not the app's, or of a workout it may not see — is the same
    /// `errorInvalidArgument`.
    package func unrelateWorkoutEffort(_ sample: UUID, workout: UUID, activity: UUID?, app: AppManifest) throws {
        if try authorization.isGuestMode() {
            throw HKError(.errorNotPermissibleForGuestUserMode, "relating workout effort is not permitted in guest mode")
        }
        let workoutVisibility = try readVisibility(app: app.bundleIdentifier, type: HKWorkoutTypeIdentifier)
        let removed = try write { db -> Int in
            let activityCondition: SQL = activity.map { "AND activityId = (SELECT id FROM workoutActivity WHERE uuid = \($0.uuidString))" } ?? ""
            try db.execute(literal: """
                DELETE FROM workoutEffort
                WHERE sampleId = (SELECT s.id FROM sample s JOIN source ON source.id = s.sourceId
                                  WHERE s.uuid = \(sample.uuidString) AND source.bundleIdentifier = \(app.bundleIdentifier))
                  AND workoutId = (SELECT id FROM sample WHERE uuid = \(workout.uuidString) AND kind = 3 AND \(workoutVisibility.condition()))
                  \(activityCondition)
                """)
            return db.changesCount
        }
        guard removed > 0 else {
            throw HKError.invalidArgument("\(app.bundleIdentifier) has no effort score \(sample) related to workout \(workout)\(activity.map { " activity \($0)" } ?? "")")
        }
    }
}
