import ArgumentParser
import Foundation
import OpenHealthKit

/// `health stats`: statistics per hour, day, week or month, merged across sources as the Health app merges them.
struct StatsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Statistics of a type per hour, day, week or month — sources merged by priority, as the Health app shows them.",
        discussion: """
            Examples:
              health stats stepCount --by day --from 2024-06-01 --to 2024-06-07
              health stats heartRate --by hour --from 2024-06-01 --to 2024-06-01 --max
              health stats stepCount --by month --separate-by-source
              health stats stepCount --by day --format csv > daily-steps.csv

            Days, weeks and months begin at midnight in your time zone: --time-zone, else the one you set with \
            health timezone, else the one your last imported export was recorded in, else this machine's (TZ). \
            csv and json give every figure at full precision, with each period's start and end as ISO 8601 times. \
            Only periods with data are shown; --from … --to … may span at most 200,000 of them.
            """)

    @OptionGroup var selection: SampleSelection

    enum Period: String, ExpressibleByArgument, CaseIterable { case hour, day, week, month }

    @Option(help: "hour, day, week or month.")
    var by: Period = .day

    @Flag(help: "Which figure (default: sum for cumulative types such as steps, average for the others).")
    var statistic: Statistic?

    enum Statistic: String, EnumerableFlag { case sum, avg, min, max }

    @Flag(name: .customLong("separate-by-source"), help: "Each source's own figures instead of the merged ones.")
    var separateBySource = false

    @Option(help: "table (one decimal, with bars), csv or json (full precision).")
    var format: OutputFormat = .table

    @OptionGroup var store: StoreOptions

    func run() async throws {
        guard let type = try selection.sampleType as? HKQuantityType else { throw CommandFailure("\(selection.type) is not a quantity type") }
        let cumulative = type.aggregationStyle == .cumulative
        let chosen = statistic ?? (cumulative ? .sum : .avg)
        var options: HKStatisticsOptions
        switch chosen {
        case .sum:
            guard cumulative else { throw CommandFailure("\(type.identifier) is not summed; use --avg, --min or --max") }
            options = .cumulativeSum
        case .avg, .min, .max:
            guard !cumulative else { throw CommandFailure("\(type.identifier) is summed; use --sum") }
            options = chosen == .avg ? .discreteAverage : chosen == .min ? .discreteMin : .discreteMax
        }
        if separateBySource { options.insert(.separateBySource) }
        let person = try store.person(creating: false)
        let calendar = try selection.calendar(for: person)
        let (start, end) = try selection.interval(calendar)
        let healthStore = person.healthStore
        // The person's preferred unit (`health prefer`; learned from their export when they imported one).
        let unit = try reporting { try person.preferredUnit(for: type) }
        let components: DateComponents = switch by {
        case .hour: DateComponents(hour: 1)
        case .day: DateComponents(day: 1)
        case .week: DateComponents(day: 7)
        case .month: DateComponents(month: 1)
        }
        if let start, let end {
            let asked = periods(from: start, to: end, in: calendar)
            guard asked <= Self.periodLimit else {
                throw CommandFailure("--from \(selection.from ?? "") --to \(selection.to ?? "") asks for \(asked.formatted()) \(by.rawValue)s, "
                    + "more than the \(Self.periodLimit.formatted()) periods health stats gives at once; narrow the dates or use a longer --by")
            }
        }
        let anchor = calendar.startOfDay(for: start ?? Date(timeIntervalSinceReferenceDate: 0))
        var descriptor = HKStatisticsCollectionQueryDescriptor(
            predicate: .quantitySample(type: type, predicate: HKQuery.predicateForSamples(withStart: start, end: end)),
            options: options, anchorDate: anchor, intervalComponents: components)
        descriptor.calendar = calendar
        let collection = try await descriptor.result(for: healthStore)
        let periods = collection.statistics()
        guard !periods.isEmpty || format != .table else { return print("No \(type.identifier) samples in that time.") }
        func figure(_ statistics: HKStatistics, _ source: HKSource?) -> Double? {
            let quantity: HKQuantity? = switch chosen {
            case .sum: source.map { statistics.sumQuantity(for: $0) } ?? statistics.sumQuantity()
            case .avg: source.map { statistics.averageQuantity(for: $0) } ?? statistics.averageQuantity()
            case .min: source.map { statistics.minimumQuantity(for: $0) } ?? statistics.minimumQuantity()
            case .max: source.map { statistics.maximumQuantity(for: $0) } ?? statistics.maximumQuantity()
            }
            return quantity.flatMap { try? $0.value(in: unit) }
        }
        var style: Date.FormatStyle = by == .hour ? .dateTime.year().month().day().hour().minute() : .dateTime.year().month().day()
        style.timeZone = calendar.timeZone
        let rows: [Row] = periods.flatMap { statistics -> [Row] in
            if separateBySource {
                return (statistics.sources ?? []).compactMap { source in
                    figure(statistics, source).map { Row(start: statistics.startDate, end: statistics.endDate, source: source.name, value: $0) }
                }
            }
            return figure(statistics, nil).map { [Row(start: statistics.startDate, end: statistics.endDate, source: nil, value: $0)] } ?? []
        }
        let iso = Date.ISO8601FormatStyle(timeZoneSeparator: .colon, timeZone: calendar.timeZone)
        switch format {
        case .table: break
        case .csv:
            print(separateBySource ? "start,end,source,value,unit" : "start,end,value,unit")
            for row in rows {
                let fields = [row.start.formatted(iso), row.end.formatted(iso)] + (separateBySource ? [row.source ?? ""] : [])
                    + [String(row.value), unit.unitString]
                print(fields.map(QueryCommand.csv).joined(separator: ","))
            }
            return
        case .json:
            let objects = rows.map { row -> [String: Any] in
                var object: [String: Any] = ["start": row.start.formatted(iso), "end": row.end.formatted(iso), "value": row.value,
                                             "unit": unit.unitString, "statistic": chosen.rawValue]
                if let source = row.source { object["source"] = source }
                return object
            }
            return print(String(decoding: try JSONSerialization.data(withJSONObject: objects, options: [.prettyPrinted, .sortedKeys]), as: UTF8.self))
        }
        let largest = rows.map(\.value).max() ?? 0
        for row in rows {
            let (label, source, value) = (row.start.formatted(style), row.source ?? "", row.value)
            let share = largest > 0 && largest.isFinite ? value / largest : 0  // sums too large to hold draw no bar
            let bar = share.isFinite && share > 0 ? String(repeating: "█", count: Int((min(share, 1) * 30).rounded())) : ""
            let number = String(format: "%.1f", value)
            print("\(label.padding(toLength: 20, withPad: " ", startingAt: 0)) \(source.isEmpty ? "" : source.padding(toLength: 24, withPad: " ", startingAt: 0) + " ")"
                  + "\(String(repeating: " ", count: max(0, 10 - number.count)))\(number) \(unit.unitString)  \(bar)")
        }
    }

    /// The most periods `--from … --to …` may span: ten thousand years of days would be millions of rows nobody reads.
    static let periodLimit = 200_000

    /// How many periods of `--by` lie between `start` and `end`.
    func periods(from start: Date, to end: Date, in calendar: Calendar) -> Int {
        let component: Calendar.Component = switch by {
        case .hour: .hour
        case .day, .week: .day
        case .month: .month
        }
        let count = calendar.dateComponents([component], from: start, to: end).value(for: component) ?? 0
        return by == .week ? (count + 6) / 7 : count
    }

    /// One figure: a period, and a source when separated by source.
    struct Row {
        let start: Date, end: Date, source: String?, value: Double
    }
}
