package import Foundation
package import HealthModel

/// `HKActivitySummary` on the wire, both ways: the daemon writes the summaries an app may read, the remote store reads
/// them back into the summaries an embedded query would have given (same day, rings, goals and move mode).
package enum WireActivitySummary {
    package typealias Summary = Components.Schemas.ActivitySummary

    package static func wire(_ summary: HKActivitySummary) -> Summary {
        let quantity = WireSample.wireQuantity
        return Summary(day: summary.day?.text ?? "", moveMode: summary.activityMoveMode.rawValue, paused: summary.isPaused,
                       activeEnergyBurned: quantity(summary.activeEnergyBurned), activeEnergyBurnedGoal: quantity(summary.activeEnergyBurnedGoal),
                       appleMoveTime: quantity(summary.appleMoveTime), appleMoveTimeGoal: quantity(summary.appleMoveTimeGoal),
                       appleExerciseTime: quantity(summary.appleExerciseTime), exerciseTimeGoal: summary.exerciseTimeGoal.map(quantity),
                       appleStandHours: quantity(summary.appleStandHours), standHoursGoal: summary.standHoursGoal.map(quantity))
    }

    /// The summaries a response lists (`/summaries/<index>`); one described wrongly is an error naming the field.
    package static func stored(_ wires: [Summary]) throws -> [HKActivitySummary] {
        var units: [String: HKUnit] = [:]
        return try wires.enumerated().map { index, wire in
            let pointer = "/summaries/\(index)"
            func quantity(_ value: Components.Schemas.Quantity, _ name: String) throws -> HKQuantity {
                try WireSample.quantity(value, at: "\(pointer)/\(name)", units: &units)
            }
            guard let day = ActivityDay(text: wire.day) else { throw WireFieldError(pointer + "/day", "\"\(wire.day)\" is not a day") }
            guard let mode = HKActivityMoveMode(rawValue: wire.moveMode) else {
                throw WireFieldError(pointer + "/moveMode", "\(wire.moveMode) is not an HKActivityMoveMode")
            }
            let summary = HKActivitySummary(day: day)
            summary.activityMoveMode = mode
            summary.isPaused = wire.paused
            summary.activeEnergyBurned = try quantity(wire.activeEnergyBurned, "activeEnergyBurned")
            summary.activeEnergyBurnedGoal = try quantity(wire.activeEnergyBurnedGoal, "activeEnergyBurnedGoal")
            summary.appleMoveTime = try quantity(wire.appleMoveTime, "appleMoveTime")
            summary.appleMoveTimeGoal = try quantity(wire.appleMoveTimeGoal, "appleMoveTimeGoal")
            summary.appleExerciseTime = try quantity(wire.appleExerciseTime, "appleExerciseTime")
            summary.exerciseTimeGoal = try wire.exerciseTimeGoal.map { try quantity($0, "exerciseTimeGoal") }
            summary.appleStandHours = try quantity(wire.appleStandHours, "appleStandHours")
            summary.standHoursGoal = try wire.standHoursGoal.map { try quantity($0, "standHoursGoal") }
            return summary
        }
    }
}
