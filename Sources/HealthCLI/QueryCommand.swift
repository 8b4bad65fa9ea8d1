import ArgumentParser
import Foundation
import OpenHealthKit

/// Options `query` and `stats` share: the type and the days.
struct SampleSelection: ParsableArguments {
    @Argument(help: "The type: an identifier or short name (stepCount, heartRate, sleepAnalysis).")
    var type: String

    @Option(help: "First day (yyyy-MM-dd, local time).")
    var from: String?

    @Option(help: "Last day, included (yyyy-MM-dd, local time).")
    var to: String?

    var sampleType: HKSampleType {
        get throws {
            guard let type = try objectType(named: type) as? HKSampleType else { throw CommandFailure("\(type) is not a sample type") }
            return type
        }
    }

    /// Start of `from` and end of `to`, in the local calendar.
    func interval(_ calendar: Calendar = .current) throws -> (start: Date?, end: Date?) {
        func day(_ text: String?) throws -> Date? {
            guard let text else { return nil }
            let parts = text.split(separator: "-").compactMap { Int($0) }
            guard parts.count == 3, let date = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2])) else {
                throw CommandFailure("\"\(text)\" is not a day; write yyyy-MM-dd")
            }
            return date
        }
        let end = try day(to).flatMap { calendar.date(byAdding: .day, value: 1, to: $0) }
        return (try day(from), end)
    }
}

/// `health query`: the samples of a type.
struct QueryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "List the samples of a type, oldest first, each in the unit it was recorded in.",
        discussion: """
            Examples:
              health query heartRate --from 2024-06-01 --to 2024-06-01 --limit 20
              health query stepCount --source "Alex’s Apple Watch" --format csv
            """)

    @OptionGroup var selection: SampleSelection

    @Option(help: "Only this source: its name or bundle identifier.")
    var source: String?

    @Option(help: "At most this many samples (0: all).")
    var limit: Int = 100

    enum Format: String, ExpressibleByArgument, CaseIterable { case table, csv, json }

    @Option(help: "table, csv or json.")
    var format: Format = .table

    @OptionGroup var store: StoreOptions

    func run() async throws {
        let person = try store.person()
        let type = try selection.sampleType
        let (start, end) = try selection.interval()
        var predicates = [HKQuery.predicateForSamples(withStart: start, end: end)]
        if let source {
            let all = try reporting { try person.sources() }.map(\.source)
            guard let match = all.first(where: { $0.name == source || $0.bundleIdentifier == source }) else {
                throw CommandFailure("no source \"\(source)\" in the store; see `health sources`")
            }
            predicates.append(HKQuery.predicateForObjects(from: match))
        }
        let healthStore = person.healthStore
        let samples = try await HKSampleQueryDescriptor(predicates: [.sample(type: type, predicate: NSCompoundPredicate(andPredicateWithSubpredicates: predicates))],
                                                        sortDescriptors: [SortDescriptor(\.startDate)], limit: limit == 0 ? nil : limit)
            .result(for: healthStore)
        let unit = (type as? HKQuantityType).flatMap { try? person.preferredUnit(for: $0) }
        let rows = samples.map { row(for: $0, unit: unit) }
        let out = Pager()
        defer { out.finish() }
        switch format {
        case .table:
            guard !rows.isEmpty else { return print("No \(type.identifier) samples.") }
            for row in rows { out.print("\(row.start)  \(row.end)  \(row.value.padding(toLength: 22, withPad: " ", startingAt: 0)) \(row.source)") }
        case .csv:
            out.print("start,end,value,unit,source")
            for row in rows { out.print([row.start, row.end, row.number, row.unit, row.source].map(csv).joined(separator: ",")) }
        case .json:
            let objects = rows.map { ["start": $0.start, "end": $0.end, "value": $0.number, "unit": $0.unit, "source": $0.source] }
            out.print(String(decoding: try JSONSerialization.data(withJSONObject: objects, options: [.prettyPrinted, .sortedKeys]), as: UTF8.self))
        }
    }

    struct Row { let start: String, end: String, value: String, number: String, unit: String, source: String }

    /// A sample as a row; a quantity in the person's preferred unit (`health prefer`).
    func row(for sample: HKSample, unit preferred: HKUnit?) -> Row {
        let format = Date.ISO8601FormatStyle(timeZone: .current)
        var number = "", unitText = "", shown = ""
        switch sample {
        case let quantity as HKQuantitySample:
            let unit = preferred.flatMap { quantity.quantity.is(compatibleWith: $0) ? $0 : nil } ?? quantity.quantity.unit
            number = String((quantity.quantity.doubleValue(for: unit) * 1000).rounded() / 1000)
            unitText = unit.unitString
            shown = "\(number) \(unitText)"
        case let category as HKCategorySample:
            number = String(category.value)
            shown = "value \(category.value)"
        case let workout as HKWorkout:
            number = String(Int(workout.duration))
            unitText = "s"
            shown = "\(workout.workoutActivityType.exportName.replacingOccurrences(of: "HKWorkoutActivityType", with: "")) \(Int(workout.duration / 60)) min"
        default:
            shown = String(describing: type(of: sample))
        }
        return Row(start: sample.startDate.formatted(format), end: sample.endDate.formatted(format), value: shown, number: number,
                   unit: unitText, source: sample.sourceRevision.source.name)
    }

    func csv(_ field: String) -> String {
        field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" }) ? "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : field
    }
}
