import ArgumentParser
import Foundation
import OpenHealthKit

/// Options `query` and `stats` share: the type and the days.
struct SampleSelection: ParsableArguments {
    @Argument(help: "The type: an identifier or short name (stepCount, heartRate, sleepAnalysis).")
    var type: String

    @Option(help: "First day (yyyy-MM-dd, in the person's time zone).")
    var from: String?

    @Option(help: "Last day, included (yyyy-MM-dd, in the person's time zone).")
    var to: String?

    @Option(name: .customLong("time-zone"),
            help: "The time zone days begin in (an IANA name: Europe/Paris, America/New_York, UTC). Default: yours (health timezone), else this machine's.")
    var timeZone: String?

    /// The calendar of the person's days: `--time-zone`, else the person's time zone (`health timezone`, or learned from
    /// their export), else the machine's.
    func calendar(for person: HealthPerson) throws -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.locale = .current
        if let timeZone {
            guard let zone = TimeZone(identifier: timeZone) else {
                throw CommandFailure("\"\(timeZone)\" is not a time zone; give an IANA name such as Europe/Paris or UTC")
            }
            calendar.timeZone = zone
        } else {
            calendar.timeZone = try reporting { try person.timeZone() }
        }
        return calendar
    }

    var sampleType: HKSampleType {
        get throws {
            guard let type = try objectType(named: type) as? HKSampleType else { throw CommandFailure("\(type) is not a sample type") }
            return type
        }
    }

    /// Start of `from` and end of `to`, in `calendar`.
    func interval(_ calendar: Calendar) throws -> (start: Date?, end: Date?) {
        let end = try to.map { try DateArgument.day($0, option: "--to", in: calendar) }.flatMap { calendar.date(byAdding: .day, value: 1, to: $0) }
        return (try from.map { try DateArgument.day($0, option: "--from", in: calendar) }, end)
    }
}

/// How `query` and `stats` print: a table for people, csv and json for programs.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable { case table, csv, json }

/// `health query`: the samples of a type.
struct QueryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "List the samples of a type, oldest first, in your preferred units.",
        discussion: """
            Every sample by default. Only a table shown on a terminal stops at 100 rows, and says how many there are; \
            csv, json and anything piped are complete. Times are in your time zone (see health timezone).

            Examples:
              health query heartRate --from 2024-06-01 --to 2024-06-01 --limit 20
              health query stepCount --source "Alex’s Apple Watch" --format csv > steps.csv
            """)

    @OptionGroup var selection: SampleSelection

    @Option(help: "Only this source: its name or bundle identifier.")
    var source: String?

    @Option(help: "At most this many samples (0: all; default: all, or 100 for a table on a terminal).")
    var limit: Int?

    /// What a table on a terminal shows unless told otherwise.
    static let screenful = 100

    @Option(help: "table, csv or json.")
    var format: OutputFormat = .table

    @OptionGroup var store: StoreOptions

    func run() async throws {
        let person = try store.person(creating: false)
        let type = try selection.sampleType
        let calendar = try selection.calendar(for: person)
        let (start, end) = try selection.interval(calendar)
        var predicates = [HKQuery.predicateForSamples(withStart: start, end: end)]
        if let source {
            let all = try reporting { try person.sources() }.map(\.source)
            guard let match = all.first(where: { $0.name == source || $0.bundleIdentifier == source }) else {
                throw CommandFailure("no source \"\(source)\" in the store; see `health sources`")
            }
            predicates.append(HKQuery.predicateForObjects(from: match))
        }
        let healthStore = person.healthStore
        let predicate = NSCompoundPredicate(andPredicateWithSubpredicates: predicates)
        // Complete unless asked otherwise; a table on a terminal is a screenful of a long list, and says so.
        let onScreen = format == .table && isatty(STDOUT_FILENO) == 1
        let limit = self.limit ?? (onScreen ? Self.screenful : 0)
        guard limit >= 0 else { throw CommandFailure("--limit \(limit): give 0 (all) or more") }
        let samples = try await HKSampleQueryDescriptor(predicates: [.sample(type: type, predicate: predicate)],
                                                        sortDescriptors: [SortDescriptor(\.startDate)], limit: limit == 0 ? nil : limit)
            .result(for: healthStore)
        let unit = (type as? HKQuantityType).flatMap { try? person.preferredUnit(for: $0) }
        let rows = samples.map { row(for: $0, unit: unit, timeZone: calendar.timeZone) }
        let out = Pager()
        defer { out.finish() }
        switch format {
        case .table:
            guard !rows.isEmpty else { return print("No \(type.identifier) samples.") }
            for row in rows { out.print("\(row.start)  \(row.end)  \(row.value.padding(toLength: 22, withPad: " ", startingAt: 0)) \(row.source)") }
            if onScreen, limit > 0, rows.count == limit {
                let total = try reporting { try person.sampleCount(of: type, predicate: predicate) }
                if total > limit {
                    out.print("showing \(limit.formatted()) of \(total.formatted()) — `--limit 0` for all, or --format csv|json for a file")
                }
            }
        case .csv:
            out.print("start,end,value,unit,source")
            for row in rows { out.print([row.start, row.end, row.number, row.unit, row.source].map(Self.csv).joined(separator: ",")) }
        case .json:
            let objects = rows.map { ["start": $0.start, "end": $0.end, "value": $0.number, "unit": $0.unit, "source": $0.source] }
            out.print(String(decoding: try JSONSerialization.data(withJSONObject: objects, options: [.prettyPrinted, .sortedKeys]), as: UTF8.self))
        }
    }

    struct Row { let start: String, end: String, value: String, number: String, unit: String, source: String }

    /// A sample as a row; a quantity in the person's preferred unit (`health prefer`).
    func row(for sample: HKSample, unit preferred: HKUnit?, timeZone: TimeZone) -> Row {
        let format = Date.ISO8601FormatStyle(timeZoneSeparator: .colon, timeZone: timeZone)
        var number = "", unitText = "", shown = ""
        switch sample {
        case let quantity as HKQuantitySample:
            let unit = preferred.flatMap { quantity.quantity.is(compatibleWith: $0) ? $0 : nil } ?? quantity.quantity.unit
            let value = quantity.quantity.doubleValue(for: unit)
            number = String(value)
            unitText = unit.unitString
            shown = "\((value * 1000).rounded() / 1000) \(unitText)"
        case let category as HKCategorySample:
            number = String(category.value)
            shown = "value \(category.value)"
        case let workout as HKWorkout:
            number = String(storedInteger(workout.duration))
            unitText = "s"
            shown = "\(workout.workoutActivityType.exportName.replacingOccurrences(of: "HKWorkoutActivityType", with: "")) \(storedInteger(workout.duration / 60)) min"
        default:
            shown = String(describing: type(of: sample))
        }
        return Row(start: sample.startDate.formatted(format), end: sample.endDate.formatted(format), value: shown, number: number,
                   unit: unitText, source: sample.sourceRevision.source.name)
    }

    static func csv(_ field: String) -> String {
        field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" }) ? "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : field
    }
}
