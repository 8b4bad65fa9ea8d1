import Foundation
import GRDB
package import HealthModel

extension SampleStore {
    /// `filter` as `app` may use it: a workout association (`HKQuery.predicateForObjects(from: workout)`, and
    /// `predicateForWorkoutEffortSamplesRelated`) selects
    /// samples only when the app may see the workout itself. A workout it may not read — another app's, or one it
    /// could read before a revocation — associates nothing, exactly as a workout that is not in the store, so its
    /// samples cannot tell that it exists.
    package func filter(_ filter: SampleFilter?, visibleTo app: String) throws -> SampleFilter? {
        guard let filter, filter.namesWorkouts else { return filter }
        let visibility = try readVisibility(app: app, type: HKWorkoutTypeIdentifier)
        return try database.read { db in try filter.resolvingWorkouts(visibility, in: db) }
    }
}

extension SampleFilter {
    /// Whether the filter names a workout anywhere.
    fileprivate var namesWorkouts: Bool {
        switch self {
        case .workoutAssociation, .workoutEffort: true
        case .and(let parts), .or(let parts): parts.contains { $0.namesWorkouts }
        case .not(let inner), .correlationMember(_, let inner): inner.namesWorkouts
        default: false
        }
    }

    /// The filter with each workout association whose workout `visibility` hides replaced by one that selects nothing.
    fileprivate func resolvingWorkouts(_ visibility: ReadVisibility, in db: Database) throws -> SampleFilter {
        switch self {
        case .workoutAssociation(let uuid), .workoutEffort(let uuid, _):
            let visible = try Bool.fetchOne(db, SQLRequest<Bool>(literal: """
                SELECT EXISTS (SELECT 1 FROM sample WHERE uuid = \(uuid.uuidString) AND kind = 3 AND \(visibility.condition()))
                """)) ?? false
            return visible ? self : .uuids([])
        case .and(let parts): return .and(try parts.map { try $0.resolvingWorkouts(visibility, in: db) })
        case .or(let parts): return .or(try parts.map { try $0.resolvingWorkouts(visibility, in: db) })
        case .not(let inner): return .not(try inner.resolvingWorkouts(visibility, in: db))
        case .correlationMember(let type, let inner): return .correlationMember(type: type, filter: try inner.resolvingWorkouts(visibility, in: db))
        default: return self
        }
    }
}
