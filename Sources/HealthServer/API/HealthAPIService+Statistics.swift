import Foundation
import HealthAPI
import HealthModel
import OpenHealthKit

/// Statistics through the daemon: `HKStatisticsQuery`, or with interval components `HKStatisticsCollectionQuery`,
/// computed here as the calling app's embedded query would (its own samples, and others' only where it may read), in the
/// time zone the app names; the app gets the statistics, never the samples behind them.
extension HealthAPIService {
    func queryStatistics(_ input: Operations.QueryStatistics.Input) async throws -> Operations.QueryStatistics.Output {
        let query = switch input.body { case .json(let body): body }   // the only content type; others are 415 before here
        guard let type = HKObjectType.type(forIdentifier: query._type) as? HKQuantityType else {
            throw Self.unknownType(query._type, at: "/type", kind: "quantity type")
        }
        let options = WireStatistics.options(query.options)
        let filter = try Self.filter(start: query.startDate, end: query.endDate, predicate: query.predicate)
        let plan: StatisticsPlan
        do { plan = try StatisticsPlan(type: type, filter: filter, options: options) } catch let error as HKError { throw Problem(error) }
        let mergeMode: HKStatisticsMergeMode = query.mergeMode.flatMap { HKStatisticsMergeMode(rawValue: $0.rawValue) } ?? .exact
        let calendar = try Self.calendar(query.timeZone)
        let intervals = try query.intervalComponents.map { components in
            guard let anchor = query.anchorDate else {
                throw Problem(.badRequest, "missing anchor date", detail: "/anchorDate: a statistics collection needs an anchor date",
                              code: .errorInvalidArgument, field: "/anchorDate")
            }
            do {
                return try StatisticsIntervals(anchor: anchor, components: WireStatistics.components(components), calendar: calendar)
            } catch let error as HKError {
                throw Problem(.badRequest, "invalid interval", detail: "/intervalComponents: \(error.message)", code: .errorInvalidArgument,
                              field: "/intervalComponents")
            }
        }
        return try await logged("statistics", attempted: [type.identifier: 0]) { store in
            let backend = try store.backend()
            if let intervals {
                let computed = try await backend.statisticsCollection(plan, intervals: intervals, mergeMode: mergeMode)
                let statistics = computed.collection.statistics()
                let range = computed.collection.range.map { Components.Schemas.IntervalRange(first: $0.lowerBound, last: $0.upperBound) }
                return (.ok(.init(body: .json(.init(statistics: statistics.map(WireStatistics.wire), intervals: range)))),
                        [type.identifier: statistics.count])
            }
            let statistics = try await backend.statistics(plan, mergeMode: mergeMode).map { [$0] } ?? []
            return (.ok(.init(body: .json(.init(statistics: statistics.map(WireStatistics.wire))))), [type.identifier: statistics.count])
        }
    }

    /// The Gregorian calendar in the request's time zone (UTC when it names none).
    private static func calendar(_ zone: String?) throws -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        guard let zone else {
            calendar.timeZone = TimeZone(identifier: "UTC")!
            return calendar
        }
        guard let timeZone = TimeZone(identifier: zone) else {
            throw Problem(.badRequest, "invalid time zone", detail: "/timeZone: \"\(zone)\" is not an IANA time zone (such as Europe/Paris)",
                          code: .errorInvalidArgument, field: "/timeZone")
        }
        calendar.timeZone = timeZone
        return calendar
    }
}
