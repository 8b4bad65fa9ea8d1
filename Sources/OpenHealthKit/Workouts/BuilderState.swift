import Foundation

/// What a workout builder has collected, and where it is in its life.
struct BuilderState {
    enum Phase: String, CustomStringConvertible {
        case created = "not begun", collecting, ended = "ended", finishing = "finishing", finished, discarded
        var description: String { rawValue }
    }

    var phase = Phase.created
    var start: Date?
    var end: Date?
    var samples: [HKSample] = []
    var sampleIDs: Set<UUID> = []
    var events: [HKWorkoutEvent] = []
    var metadata: [String: HKMetadataValue] = [:]
    var activities: [HKWorkoutActivity] = []

    /// Fails, saying what the caller tried and where the builder is, unless it is in `phase`.
    func require(_ phase: Phase, to action: String) throws {
        guard self.phase == phase else {
            let hint = switch self.phase {
            case .created: "call beginCollection first"
            case .collecting: "call endCollection first"
            case .ended: "collection has ended"
            case .finishing, .finished: "the workout is finished"
            case .discarded: "the workout was discarded"
            }
            throw HKError.invalidArgument("cannot \(action): \(hint)")
        }
    }

    /// Fails unless `start...end` lies inside the collection so far (after its start; before its end once ended).
    func checkInside(_ start: Date, _ end: Date, what: String) throws {
        guard end >= start else { throw HKError.invalidArgument("\(what) ends before it starts") }
        if let begin = self.start, start < begin {
            throw HKError.invalidArgument("\(what) starts at \(start.formatted(.iso8601)), before the workout (\(begin.formatted(.iso8601)))")
        }
        if let finish = self.end, end > finish {
            throw HKError.invalidArgument("\(what) ends at \(end.formatted(.iso8601)), after the workout (\(finish.formatted(.iso8601)))")
        }
    }

    /// Fails when `activity` overlaps an activity already added (an open activity reaches to the end of time).
    func checkNoOverlap(_ activity: HKWorkoutActivity) throws {
        let end = activity.endDate ?? .distantFuture
        for other in activities where other.uuid != activity.uuid {
            let otherEnd = other.endDate ?? .distantFuture
            if activity.startDate < otherEnd && other.startDate < end {
                throw HKError.invalidArgument("activity \(activity.uuid) overlaps activity \(other.uuid); activities follow one another")
            }
        }
    }

    func activityIndex(_ uuid: UUID) throws -> Int {
        guard let index = activities.firstIndex(where: { $0.uuid == uuid }) else {
            throw HKError.invalidArgument("no activity \(uuid) was added to this workout")
        }
        return index
    }
}
