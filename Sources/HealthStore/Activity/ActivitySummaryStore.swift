import Foundation
import GRDB
package import HealthModel

/// The person's activity summaries, one per day. Only the person's side writes them (their devices, an imported
/// export, `HealthPerson`); apps read them with read permission for the activity summary type, and an app
/// without it sees none — exactly as if there were none.
package struct ActivitySummaryStore: Sendable {
    package let database: HealthDatabase

    package init(database: HealthDatabase) {
        self.database = database
    }

    package static let typeIdentifier = HKObjectType.activitySummaryType().identifier

    /// What a read returns: the summaries in day order and the store's revision at that moment (pass it as
    /// `after` to get only what is new or changed since).
    package struct Snapshot: Sendable {
        package let summaries: [HKActivitySummary]
        package let revision: Int
    }

    /// Saves the summaries in one transaction — all or none — replacing any already stored for the same day.
    /// A summary without a day, or with a value of the wrong kind or negative, is `errorInvalidArgument` and
    /// nothing is saved; two summaries of one day in a batch are too.
    package func save(_ summaries: [HKActivitySummary]) throws {
        var days = Set<ActivityDay>()
        for summary in summaries {
            try summary.validate()
            guard days.insert(summary.day!).inserted else {
                throw HKError.invalidArgument("two activity summaries of \(summary.day!.text) in one batch; give each day one summary")
            }
        }
        guard !summaries.isEmpty else { return }
        try database.write { db in
            let revision = try Int.fetchOne(db, sql: "SELECT IFNULL(MAX(revision), 0) + 1 FROM activitySummary")!
            let statement = try db.cachedStatement(sql: """
                INSERT INTO activitySummary (day, moveMode, paused, energy, energyUnit, energyGoal, energyGoalUnit,
                    moveTime, moveTimeUnit, moveTimeGoal, moveTimeGoalUnit, exercise, exerciseUnit, exerciseGoal, exerciseGoalUnit,
                    stand, standUnit, standGoal, standGoalUnit, revision)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (day) DO UPDATE SET moveMode = excluded.moveMode, paused = excluded.paused,
                    energy = excluded.energy, energyUnit = excluded.energyUnit, energyGoal = excluded.energyGoal,
                    energyGoalUnit = excluded.energyGoalUnit, moveTime = excluded.moveTime, moveTimeUnit = excluded.moveTimeUnit,
                    moveTimeGoal = excluded.moveTimeGoal, moveTimeGoalUnit = excluded.moveTimeGoalUnit,
                    exercise = excluded.exercise, exerciseUnit = excluded.exerciseUnit, exerciseGoal = excluded.exerciseGoal,
                    exerciseGoalUnit = excluded.exerciseGoalUnit, stand = excluded.stand, standUnit = excluded.standUnit,
                    standGoal = excluded.standGoal, standGoalUnit = excluded.standGoalUnit, revision = excluded.revision
                """)
            for summary in summaries {
                var arguments: [(any DatabaseValueConvertible)?] = [summary.day!.text, summary.activityMoveMode.rawValue, summary.isPaused]
                for quantity in [summary.activeEnergyBurned, summary.activeEnergyBurnedGoal, summary.appleMoveTime, summary.appleMoveTimeGoal,
                                 summary.appleExerciseTime, summary.exerciseTimeGoal, summary.appleStandHours, summary.standHoursGoal] {
                    arguments.append(quantity?.doubleValue)
                    arguments.append(quantity?.unit.unitString)
                }
                arguments.append(revision)
                try statement.execute(arguments: StatementArguments(arguments))
            }
        }
        StoreChanges.for(database.directory).post([Self.typeIdentifier])
    }

    /// The summaries matching `filter` (activity summary predicates only), in day order, that `app` may see — all
    /// of them with read permission, none without; `app == nil` is the person, who sees all. With `after`, only
    /// those written after that revision.
    package func summaries(matching filter: SampleFilter?, visibleTo app: String?, after revision: Int? = nil) throws -> Snapshot {
        var condition: SQL = "1"
        if let filter { condition = try filter.activitySummarySQL() }
        if let revision { condition = "(\(condition)) AND activitySummary.revision > \(revision)" }
        return try database.read { db in
            let current = try Int.fetchOne(db, sql: "SELECT IFNULL(MAX(revision), 0) FROM activitySummary")!
            if let app, try !AuthorizationService.canRead(app: app, type: Self.typeIdentifier, in: db) {
                // Revision 0, not the current one: a stream's ids (sealed revisions) must not tell an app that may not
                // read the summaries when they changed.
                return Snapshot(summaries: [], revision: 0)
            }
            let rows = try SQLRequest<Row>("SELECT * FROM activitySummary WHERE \(condition) ORDER BY day").fetchAll(db)
            return Snapshot(summaries: try rows.map(Self.summary(from:)), revision: current)
        }
    }

    static func summary(from row: Row) throws -> HKActivitySummary {
        guard let day = ActivityDay(text: row["day"]) else {
            throw HKError(.errorDatabaseInaccessible, "the store holds an activity summary with a bad day \(String(describing: row["day"] as String?))")
        }
        func quantity(_ column: String) throws -> HKQuantity? {
            guard let value = row[column] as Double?, let unit = row[column + "Unit"] as String? else { return nil }
            return HKQuantity(unit: try HKUnit.parse(unit), doubleValue: value)
        }
        let summary = HKActivitySummary(day: day)
        summary.activityMoveMode = HKActivityMoveMode(rawValue: row["moveMode"]) ?? .activeEnergy
        summary.isPaused = row["paused"]
        if let value = try quantity("energy") { summary.activeEnergyBurned = value }
        if let value = try quantity("energyGoal") { summary.activeEnergyBurnedGoal = value }
        if let value = try quantity("moveTime") { summary.appleMoveTime = value }
        if let value = try quantity("moveTimeGoal") { summary.appleMoveTimeGoal = value }
        if let value = try quantity("exercise") { summary.appleExerciseTime = value }
        if let value = try quantity("stand") { summary.appleStandHours = value }
        summary.exerciseTimeGoal = try quantity("exerciseGoal")
        summary.standHoursGoal = try quantity("standGoal")
        return summary
    }
}
