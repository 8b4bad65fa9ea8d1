import Foundation
import HealthAPI
import HealthModel
import OpenHealthKit

/// Workout effort scores related to workouts (`HKHealthStore.relateWorkoutEffortSample`, `unrelateWorkoutEffortSample`):
/// checked and made by the same engine as an embedded store's.
extension HealthAPIService {
    func relateWorkoutEffort(_ input: Operations.RelateWorkoutEffort.Input) async throws -> Operations.RelateWorkoutEffort.Output {
        let request = switch input.body { case .json(let body): body }   // the only content type; others are 415 before here
        let workout = try Self.uuid(request.workout, at: "/workout")
        let activity = try request.activity.map { try Self.uuid($0, at: "/activity") }
        let attempted = [request.sample._type: 1]
        return try await logged("save", attempted: attempted) { store in
            let sample = try Self.object(request.sample, at: "/sample")
            try await store.backend().relateWorkoutEffort(sample, workout: workout, activity: activity)
            return (.noContent, attempted)
        }
    }

    func unrelateWorkoutEffort(_ input: Operations.UnrelateWorkoutEffort.Input) async throws -> Operations.UnrelateWorkoutEffort.Output {
        let request = switch input.body { case .json(let body): body }   // the only content type; others are 415 before here
        let sample = try Self.uuid(request.sample, at: "/sample")
        let workout = try Self.uuid(request.workout, at: "/workout")
        let activity = try request.activity.map { try Self.uuid($0, at: "/activity") }
        return try await logged("unrelate", attempted: [:]) { store in
            try await store.backend().unrelateWorkoutEffort(sample, workout: workout, activity: activity)
            return (.noContent, [:])
        }
    }
}
