import Foundation
import HealthAPI
import HealthModel
import OpenHealthKit

/// Statistics through the daemon: `HKStatisticsQuery`, or with an interval `HKStatisticsCollectionQuery`, run as the
/// calling app (its own samples, and others' only where it may read), in the time zone the app names.
extension HealthAPIService {
    func queryStatistics(_ input: Operations.QueryStatistics.Input) async throws -> Operations.QueryStatistics.Output {
        let query = switch input.body { case .json(let body): body }   // the only content type; others are 415 before here
        guard let type = HKObjectType.type(forIdentifier: query._type) as? HKQuantityType else {
            throw Self.unknownType(query._type, at: "/type", kind: "quantity type")
        }
        let options = HKStatisticsOptions(query.options.map(Self.option))
        let predicate = Self.datePredicate(start: query.startDate, end: query.endDate)
        var calendar = Calendar(identifier: .gregorian)
        if let zone = query.timeZone {
            guard let timeZone = TimeZone(identifier: zone) else {
                throw Problem(.badRequest, "invalid time zone", detail: "/timeZone: \"\(zone)\" is not an IANA time zone (such as Europe/Paris)",
                              code: .errorInvalidArgument, field: "/timeZone")
            }
            calendar.timeZone = timeZone
        } else {
            calendar.timeZone = TimeZone(identifier: "UTC")!
        }
        let interval = try query.interval.map { interval -> (DateComponents, Date) in
            guard let anchor = query.anchorDate else {
                throw Problem(.badRequest, "missing anchor date", detail: "/anchorDate: a statistics collection needs an anchor date",
                              code: .errorInvalidArgument, field: "/anchorDate")
            }
            return (Self.components(interval), anchor)
        }
        return try await logged("statistics", attempted: [type.identifier: 0]) { store in
            let statistics: [HKStatistics]
            if let (components, anchor) = interval {
                var descriptor = HKStatisticsCollectionQueryDescriptor(
                    predicate: .quantitySample(type: type, predicate: predicate), options: options, anchorDate: anchor, intervalComponents: components)
                descriptor.calendar = calendar
                statistics = try await descriptor.result(for: store).statistics()
            } else {
                let one = try await HKStatisticsQueryDescriptor(predicate: .quantitySample(type: type, predicate: predicate), options: options)
                    .result(for: store)
                statistics = one.map { [$0] } ?? []
            }
            return (.ok(.init(body: .json(.init(statistics: statistics.map(Self.wire))))), [type.identifier: statistics.count])
        }
    }

    private static func option(_ option: Components.Schemas.StatisticsOption) -> HKStatisticsOptions {
        switch option {
        case .cumulativeSum: .cumulativeSum
        case .discreteAverage: .discreteAverage
        case .discreteMin: .discreteMin
        case .discreteMax: .discreteMax
        case .mostRecent: .mostRecent
        case .duration: .duration
        case .separateBySource: .separateBySource
        }
    }

    private static func components(_ interval: Components.Schemas.StatisticsInterval) -> DateComponents {
        switch interval.unit {
        case .second: DateComponents(second: interval.count)
        case .minute: DateComponents(minute: interval.count)
        case .hour: DateComponents(hour: interval.count)
        case .day: DateComponents(day: interval.count)
        case .week: DateComponents(weekOfYear: interval.count)
        case .month: DateComponents(month: interval.count)
        case .year: DateComponents(year: interval.count)
        }
    }

    private static func wire(_ quantity: HKQuantity?) -> Components.Schemas.Quantity? {
        quantity.map { .init(value: $0.doubleValue, unit: $0.unit.unitString) }
    }

    private static func wire(_ statistics: HKStatistics) -> Components.Schemas.Statistics {
        let recent = statistics.mostRecentQuantityDateInterval()
        return .init(
            startDate: statistics.startDate, endDate: statistics.endDate, sum: wire(statistics.sumQuantity()),
            average: wire(statistics.averageQuantity()), minimum: wire(statistics.minimumQuantity()), maximum: wire(statistics.maximumQuantity()),
            mostRecent: wire(statistics.mostRecentQuantity()), mostRecentStartDate: recent?.start, mostRecentEndDate: recent?.end,
            duration: wire(statistics.duration()),
            sources: statistics.sources?.map { source in
                .init(source: .init(name: source.name, bundleIdentifier: source.bundleIdentifier), sum: wire(statistics.sumQuantity(for: source)),
                      average: wire(statistics.averageQuantity(for: source)), minimum: wire(statistics.minimumQuantity(for: source)),
                      maximum: wire(statistics.maximumQuantity(for: source)), mostRecent: wire(statistics.mostRecentQuantity(for: source)),
                      duration: wire(statistics.duration(for: source)))
            })
    }
}
