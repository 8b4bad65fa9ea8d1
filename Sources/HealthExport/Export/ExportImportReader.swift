package import Foundation
package import HealthModel

/// Streams an Apple Health `export.xml` into HealthKit objects, in constant memory: `Record`s (quantity and category,
/// with their `MetadataEntry`s), `Correlation`s (their nested Records are the same samples as the top-level copies and
/// get the same UUIDs, so they are stored once), `Me` characteristics and `ActivitySummary`s. Each object's UUID is
/// derived from what it is (type, source, instants, value in the type's canonical unit, device), so importing the
/// same data twice — or an overlapping newer export, whose dates carry another UTC offset or whose units follow
/// another preference — yields the same UUIDs.
///
/// Anything it cannot use is reported with its line and the reason, never a crash: an unknown record type, a value
/// that is not a number, a unit that does not fit the type, an end before the start. Workouts come with their events,
/// statistics (or the totals older exports write as attributes) and activities; their routes are not imported yet
/// (each is reported).
package struct ExportImportReader {
    /// Something left out, with the export.xml line it starts on.
    package struct Problem: Sendable, Hashable {
        package let line: Int
        package let element: String
        package let reason: String
    }

    /// What the reader hands over as it goes.
    package struct Sink {
        /// A batch of samples (correlations hold their members) to store.
        package var objects: ([HKObject]) throws -> Void
        /// The `Me` element's attributes.
        package var me: ([String: String]) throws -> Void
        package var activitySummaries: ([HKActivitySummary]) throws -> Void
        /// Bytes of export.xml read and objects read so far, after each chunk of the file.
        package var progress: (Int, Int) -> Void = { _, _ in }

        package init(objects: @escaping ([HKObject]) throws -> Void, me: @escaping ([String: String]) throws -> Void,
                     activitySummaries: @escaping ([HKActivitySummary]) throws -> Void,
                     progress: @escaping (Int, Int) -> Void = { _, _ in }) {
            self.objects = objects
            self.me = me
            self.activitySummaries = activitySummaries
            self.progress = progress
        }
    }

    /// What was read.
    package struct Summary: Sendable {
        /// Objects read, by type identifier (correlation members counted under their own type, once).
        package var read: [String: Int] = [:]
        package var problems: [Problem] = []
        /// How many problems of each reason (problems past the first 1,000 are only counted).
        package var problemCounts: [String: Int] = [:]
    }

    let batchSize: Int

    package init(batchSize: Int = 5_000) {
        self.batchSize = batchSize
    }

    package func read(_ xml: URL, into sink: Sink) throws -> Summary {
        var state = State(batchSize: batchSize, sink: sink)
        try XMLStartTagScanner(url: xml).scan(names: State.elements) { tag in
            try state.start(tag)
        } end: { name in
            try state.end(name)
        } problem: { line, message in
            state.report(line: line, element: "XML", reason: message)
        } progress: { bytes in
            sink.progress(bytes, state.summary.read.values.reduce(0, +))
        }
        try state.finish()
        return state.summary
    }

    /// The element being read and what it has collected.
    private struct State {
        static let elements: Set<String> = ["Me", "Record", "MetadataEntry", "Correlation", "ActivitySummary", "Workout", "WorkoutEvent",
                                            "WorkoutStatistics", "WorkoutActivity", "WorkoutRoute"]

        let batchSize: Int
        let sink: Sink
        var summary = Summary()
        var batch: [HKObject] = []
        var summaries: [HKActivitySummary] = []
        var units: [String: HKUnit] = [:]
        /// Device strings and source revisions repeat on every record of a source: parsed once each. Device strings
        /// are keyed without their `0x…` pointer, which changes per record.
        var devices: [Substring: HKDevice?] = [:]
        var revisions: [String: HKSourceRevision] = [:]
        /// An open Record: its attributes, line and metadata entries.
        var record: (attributes: [String: String], line: Int, metadata: [(String, String)])?
        /// An open Correlation and its members so far.
        var correlation: (attributes: [String: String], line: Int, metadata: [(String, String)], members: [HKSample])?
        /// An open Workout, its open WorkoutActivity and WorkoutEvent, and whether a WorkoutRoute is open.
        var workout: OpenWorkout?
        var activity: OpenWorkout?
        var event: (attributes: [String: String], line: Int, metadata: [(String, String)])?
        var inRoute = false

        /// What a Workout or WorkoutActivity has collected.
        struct OpenWorkout {
            var attributes: [String: String]
            var line: Int
            var metadata: [(String, String)] = []
            var events: [HKWorkoutEvent] = []
            var statistics: [HKQuantityType: HKStatistics] = [:]
            var activities: [HKWorkoutActivity] = []
        }

        init(batchSize: Int, sink: Sink) {
            self.batchSize = batchSize
            self.sink = sink
        }

        mutating func start(_ tag: XMLStartTagScanner.Tag) throws {
            switch tag.name {
            case "Record":
                record = (tag.attributes, tag.line, [])
                if tag.selfClosing { try end("Record") }
            case "MetadataEntry":
                guard let key = tag.attributes["key"], let value = tag.attributes["value"] else {
                    return report(line: tag.line, element: "MetadataEntry", reason: "a MetadataEntry without key or value")
                }
                if event != nil { event!.metadata.append((key, value)) }
                else if inRoute { return }
                else if activity != nil { activity!.metadata.append((key, value)) }
                else if record != nil { record!.metadata.append((key, value)) }
                else if workout != nil { workout!.metadata.append((key, value)) }
                else if correlation != nil { correlation!.metadata.append((key, value)) }
            case "Correlation":
                correlation = (tag.attributes, tag.line, [], [])
                if tag.selfClosing { try end("Correlation") }
            case "Me":
                try sink.me(tag.attributes)
            case "ActivitySummary":
                activitySummary(tag)
            case "Workout":
                workout = OpenWorkout(attributes: tag.attributes, line: tag.line)
                if tag.selfClosing { try end("Workout") }
            case "WorkoutActivity" where workout != nil:
                activity = OpenWorkout(attributes: tag.attributes, line: tag.line)
                if tag.selfClosing { try end("WorkoutActivity") }
            case "WorkoutEvent" where workout != nil:
                event = (tag.attributes, tag.line, [])
                if tag.selfClosing { try end("WorkoutEvent") }
            case "WorkoutStatistics" where workout != nil:
                if let (type, statistics) = workoutStatistics(tag) {
                    if activity != nil { activity!.statistics[type] = statistics } else { workout!.statistics[type] = statistics }
                }
            case "WorkoutRoute" where workout != nil:
                report(line: tag.line, element: "WorkoutRoute", reason: "workout routes are not imported yet")
                inRoute = !tag.selfClosing
            default:
                break
            }
        }

        mutating func end(_ name: String) throws {
            switch name {
            case "Record":
                guard let open = record else { return }
                record = nil
                guard let sample = sample(open.attributes, line: open.line, metadata: open.metadata) else { return }
                if correlation != nil { correlation!.members.append(sample) } else { try add(sample) }
            case "Correlation":
                guard let open = correlation else { return }
                correlation = nil
                if let made = correlationSample(open) { try add(made) }
            case "WorkoutEvent":
                guard let open = event else { return }
                event = nil
                guard let made = workoutEvent(open) else { return }
                if activity != nil { activity!.events.append(made) } else { workout?.events.append(made) }
            case "WorkoutActivity":
                guard let open = activity else { return }
                activity = nil
                if let made = workoutActivity(open) { workout?.activities.append(made) }
            case "WorkoutRoute":
                inRoute = false
            case "Workout":
                guard let open = workout else { return }
                workout = nil
                if let made = workoutSample(open) { try add(made) }
            default:
                break
            }
        }

        mutating func finish() throws {
            if !batch.isEmpty { try sink.objects(batch) }
            batch.removeAll()
            if !summaries.isEmpty { try sink.activitySummaries(summaries) }
        }

        mutating func add(_ object: HKObject) throws {
            if let sample = object as? HKSample { summary.read[sample.sampleType.identifier, default: 0] += 1 }
            for member in (object as? HKCorrelation)?.objects ?? [] { summary.read[member.sampleType.identifier, default: 0] += 1 }
            batch.append(object)
            if batch.count >= batchSize {
                try sink.objects(batch)
                batch.removeAll(keepingCapacity: true)
            }
        }

        mutating func report(line: Int, element: String, reason: String) {
            summary.problemCounts[reason, default: 0] += 1
            if summary.problems.count < 1_000 { summary.problems.append(Problem(line: line, element: element, reason: reason)) }
        }

        // MARK: Records

        mutating func sample(_ a: [String: String], line: Int, metadata entries: [(String, String)]) -> HKSample? {
            guard let typeName = a["type"], !typeName.isEmpty else {
                report(line: line, element: "Record", reason: "a Record without type")
                return nil
            }
            guard let sourceName = a["sourceName"] ?? a["source"] else {
                report(line: line, element: "Record", reason: "a Record without sourceName")
                return nil
            }
            guard let start = a["startDate"].flatMap(ExportDates.parse), let end = a["endDate"].flatMap(ExportDates.parse) else {
                report(line: line, element: "Record", reason: "a Record whose startDate or endDate is not a date of the export's form")
                return nil
            }
            guard end >= start else {
                report(line: line, element: "Record", reason: "a Record that ends before it starts")
                return nil
            }
            let device = self.device(a["device"])
            let revision = self.revision(sourceName, a["sourceVersion"], device)
            let metadata = Self.metadata(entries)
            let type = HKObjectType.type(forIdentifier: typeName)
            let identity = "\(typeName)|\(sourceName)|\(start.timeIntervalSince1970)|\(end.timeIntervalSince1970)|\(Self.deviceKey(device))"
            switch type {
            case let quantityType as HKQuantityType:
                // 2015 exports wrote averaged heart rate as min/max/average/recordCount, without a value.
                guard let valueText = a["value"] ?? a["average"], let value = Double(valueText), value.isFinite else {
                    report(line: line, element: "Record", reason: "a \(typeName) Record whose value is not a number")
                    return nil
                }
                let unitString = a["unit"] ?? ""
                guard let unit = self.unit(unitString), unit.isCompatible(with: quantityType.canonicalUnit),
                      let canonical = try? unit.convert(value, to: quantityType.canonicalUnit) else {
                    report(line: line, element: "Record", reason: "unit \"\(unitString)\" does not fit \(typeName)")
                    return nil
                }
                let uuid = ExportSources.stableUUID("Record|\(identity)|\(Self.canonicalText(canonical))")
                return HKQuantitySample.make(type: quantityType, quantity: HKQuantity(unit: unit, doubleValue: value), start: start, end: end,
                                             uuid: uuid, metadata: metadata, sourceRevision: revision, device: device)
            case let categoryType as HKCategoryType:
                let valueText = a["value"] ?? ""
                guard let value = categoryValueRawValuesByName[valueText] ?? Int(valueText) else {
                    report(line: line, element: "Record", reason: "\"\(valueText)\" is not a value of \(typeName)")
                    return nil
                }
                let uuid = ExportSources.stableUUID("Record|\(identity)|\(value)")
                return HKCategorySample(type: categoryType, value: value, start: start, end: end, uuid: uuid, metadata: metadata,
                                        sourceRevision: revision, device: device)
            default:
                report(line: line, element: "Record", reason: "unknown record type \(typeName)")
                return nil
            }
        }

        mutating func correlationSample(_ open: (attributes: [String: String], line: Int, metadata: [(String, String)], members: [HKSample])) -> HKSample? {
            let a = open.attributes
            guard let typeName = a["type"], let type = HKObjectType.type(forIdentifier: typeName) as? HKCorrelationType else {
                report(line: open.line, element: "Correlation", reason: "unknown correlation type \(a["type"] ?? "")")
                return nil
            }
            guard let sourceName = a["sourceName"] ?? a["source"],
                  let start = a["startDate"].flatMap(ExportDates.parse), let end = a["endDate"].flatMap(ExportDates.parse), end >= start else {
                report(line: open.line, element: "Correlation", reason: "a Correlation without source or valid dates")
                return nil
            }
            guard !open.members.isEmpty else {
                report(line: open.line, element: "Correlation", reason: "a Correlation without readable Records")
                return nil
            }
            let device = self.device(a["device"])
            let members = open.members.map(\.uuid.uuidString).sorted().joined(separator: ",")
            let uuid = ExportSources.stableUUID("Correlation|\(typeName)|\(sourceName)|\(start.timeIntervalSince1970)|\(end.timeIntervalSince1970)|\(members)")
            return HKCorrelation(type: type, start: start, end: end, objects: Set(open.members), uuid: uuid,
                                 metadata: Self.metadata(open.metadata),
                                 sourceRevision: revision(sourceName, a["sourceVersion"], device), device: device)
        }

        mutating func device(_ text: String?) -> HKDevice? {
            guard let text else { return nil }
            let key = text.firstRange(of: ">, ").map { text[$0.upperBound...] } ?? Substring(text)
            if let known = devices[key] { return known }
            let parsed = ExportSources.device(text)
            devices[key] = parsed
            return parsed
        }

        mutating func revision(_ sourceName: String, _ version: String?, _ device: HKDevice?) -> HKSourceRevision {
            let key = "\(sourceName)|\(version ?? "")|\(Self.deviceKey(device))"
            if let known = revisions[key] { return known }
            let made = ExportSources.revision(sourceName: sourceName, sourceVersion: version, device: device)
            revisions[key] = made
            return made
        }

        mutating func unit(_ text: String) -> HKUnit? {
            if let known = units[text] { return known }
            guard let parsed = try? HKUnit.parse(text) else { return nil }
            units[text] = parsed
            return parsed
        }

        /// Typed metadata: HealthKit keys by the kind their table gives (a quantity `"6575 cm"`, a number, a Boolean
        /// `0`/`1`, a date), other keys as text.
        static func metadata(_ entries: [(String, String)]) -> [String: HKMetadataValue]? {
            guard !entries.isEmpty else { return nil }
            var values: [String: HKMetadataValue] = [:]
            for (key, text) in entries {
                switch HealthCatalog.metadataValueKind(forKey: key) {
                case .quantity?:
                    if let space = text.firstIndex(of: " "), let number = Double(text[..<space]),
                       let unit = try? HKUnit.parse(String(text[text.index(after: space)...])
                                                   .replacingOccurrences(of: "/hr·kg", with: "/(hr*kg)")   // HKAverageMETs, two spellings
                                                   .replacingOccurrences(of: "/hr-kg", with: "/(hr*kg)")) {
                        values[key] = .quantity(HKQuantity(unit: unit, doubleValue: number))
                    } else {
                        values[key] = .string(text)
                    }
                case .number?:
                    if let integer = Int(text) { values[key] = .integer(integer) } else if let double = Double(text) { values[key] = .double(double) } else { values[key] = .string(text) }
                case .date?:
                    values[key] = ExportDates.parse(text).map(HKMetadataValue.date) ?? .string(text)
                default:
                    values[key] = .string(text)
                }
            }
            return values
        }

        static func deviceKey(_ device: HKDevice?) -> String {
            guard let device else { return "" }
            return [device.name, device.manufacturer, device.model, device.hardwareVersion, device.softwareVersion].map { $0 ?? "" }.joined(separator: ";")
        }

        /// A value in canonical units, rounded to 6 significant digits, so that the same value exported in another unit
        /// (154.3236 lb, 70 kg) compares equal.
        static func canonicalText(_ value: Double) -> String {
            guard value != 0, value.isFinite else { return "0" }
            let scale = pow(10, 5 - floor(log10(abs(value))))
            return "\((value * scale).rounded() / scale)"
        }

        // MARK: Workouts

        /// `duration` in `durationUnit` (minutes unless said otherwise), in seconds.
        func seconds(_ a: [String: String]) -> Double? {
            guard let value = a["duration"].flatMap(Double.init) else { return nil }
            let unit = a["durationUnit"].flatMap { try? HKUnit.parse($0) } ?? .minute()
            return try? unit.convert(value, to: .second())
        }

        mutating func workoutEvent(_ open: (attributes: [String: String], line: Int, metadata: [(String, String)])) -> HKWorkoutEvent? {
            let a = open.attributes
            guard let type = a["type"].flatMap({ modelEnumRawValuesByName[$0] }).flatMap(HKWorkoutEventType.init(rawValue:)),
                  let date = a["date"].flatMap(ExportDates.parse) else {
                report(line: open.line, element: "WorkoutEvent", reason: "a WorkoutEvent of unknown type or without a date")
                return nil
            }
            return HKWorkoutEvent(type: type, dateInterval: DateInterval(start: date, duration: max(seconds(a) ?? 0, 0)),
                                  validatedMetadata: Self.metadata(open.metadata))
        }

        mutating func workoutStatistics(_ tag: XMLStartTagScanner.Tag) -> (HKQuantityType, HKStatistics)? {
            let a = tag.attributes
            guard let type = a["type"].flatMap({ HKObjectType.type(forIdentifier: $0) }) as? HKQuantityType,
                  let start = a["startDate"].flatMap(ExportDates.parse), let end = a["endDate"].flatMap(ExportDates.parse),
                  let unit = a["unit"].flatMap({ self.unit($0) }), unit.isCompatible(with: type.canonicalUnit) else {
                report(line: tag.line, element: "WorkoutStatistics", reason: "WorkoutStatistics of unknown type, unit or dates")
                return nil
            }
            func quantity(_ key: String) -> HKQuantity? { a[key].flatMap(Double.init).map { HKQuantity(unit: unit, doubleValue: $0) } }
            return (type, HKStatistics(quantityType: type, startDate: start, endDate: end,
                                       merged: .init(sum: quantity("sum"), minimum: quantity("minimum"), maximum: quantity("maximum"),
                                                     average: quantity("average"))))
        }

        mutating func workoutActivity(_ open: OpenWorkout) -> HKWorkoutActivity? {
            let a = open.attributes
            guard let start = a["startDate"].flatMap(ExportDates.parse) else {
                report(line: open.line, element: "WorkoutActivity", reason: "a WorkoutActivity without a start date")
                return nil
            }
            let configuration = HKWorkoutConfiguration()
            configuration.activityType = workout?.attributes["workoutActivityType"].flatMap(HKWorkoutActivityType.init(exportName:)) ?? .other
            let uuid = a["uuid"].flatMap(UUID.init(uuidString:)) ?? ExportSources.stableUUID("WorkoutActivity|\(start.timeIntervalSince1970)")
            return HKWorkoutActivity(uuid: uuid, configuration: configuration, start: start, end: a["endDate"].flatMap(ExportDates.parse),
                                     events: open.events, statistics: open.statistics, metadata: Self.metadata(open.metadata))
        }

        mutating func workoutSample(_ open: OpenWorkout) -> HKWorkout? {
            let a = open.attributes
            guard let typeName = a["workoutActivityType"], let activityType = HKWorkoutActivityType(exportName: typeName) else {
                report(line: open.line, element: "Workout", reason: "unknown workoutActivityType \(a["workoutActivityType"] ?? "")")
                return nil
            }
            guard let sourceName = a["sourceName"] ?? a["source"], let start = a["startDate"].flatMap(ExportDates.parse),
                  let end = a["endDate"].flatMap(ExportDates.parse), end >= start else {
                report(line: open.line, element: "Workout", reason: "a Workout without source or valid dates")
                return nil
            }
            var statistics = open.statistics
            // Exports before iOS 16 give totals as attributes instead of WorkoutStatistics.
            func total(_ key: String, _ type: HKQuantityType) {
                guard statistics[type] == nil, let value = a[key].flatMap(Double.init), let unit = a[key + "Unit"].flatMap({ self.unit($0) }),
                      unit.isCompatible(with: type.canonicalUnit) else { return }
                statistics[type] = HKStatistics(quantityType: type, startDate: start, endDate: end,
                                                merged: .init(sum: HKQuantity(unit: unit, doubleValue: value)))
            }
            total("totalEnergyBurned", HKQuantityType(.activeEnergyBurned))
            total("totalDistance", HKWorkout.distanceType(for: activityType))
            let duration = seconds(a) ?? end.timeIntervalSince(start)
            let device = self.device(a["device"])
            let uuid = ExportSources.stableUUID("Workout|\(typeName)|\(sourceName)|\(start.timeIntervalSince1970)|\(end.timeIntervalSince1970)")
            return HKWorkout(activityType: activityType, start: start, end: end, duration: duration,
                             events: open.events.isEmpty ? nil : open.events.sorted { $0.dateInterval.start < $1.dateInterval.start },
                             activities: open.activities, statistics: statistics, uuid: uuid, metadata: Self.metadata(open.metadata),
                             sourceRevision: revision(sourceName, a["sourceVersion"], device), device: device)
        }

        // MARK: Activity summaries

        mutating func activitySummary(_ tag: XMLStartTagScanner.Tag) {
            let a = tag.attributes
            guard let dayText = a["dateComponents"], let day = ActivityDay(text: dayText) else {
                return report(line: tag.line, element: "ActivitySummary", reason: "an ActivitySummary without a yyyy-MM-dd dateComponents")
            }
            let summary = HKActivitySummary(day: day)
            func number(_ key: String) -> Double? { a[key].flatMap(Double.init) }
            let energyUnit = a["activeEnergyBurnedUnit"].flatMap { try? HKUnit.parse($0) } ?? .kilocalorie()
            if let value = number("activeEnergyBurned") { summary.activeEnergyBurned = HKQuantity(unit: energyUnit, doubleValue: value) }
            if let value = number("activeEnergyBurnedGoal") { summary.activeEnergyBurnedGoal = HKQuantity(unit: energyUnit, doubleValue: value) }
            if let value = number("appleMoveTime") { summary.appleMoveTime = HKQuantity(unit: .minute(), doubleValue: value) }
            if let value = number("appleMoveTimeGoal") { summary.appleMoveTimeGoal = HKQuantity(unit: .minute(), doubleValue: value) }
            if let value = number("appleExerciseTime") { summary.appleExerciseTime = HKQuantity(unit: .minute(), doubleValue: value) }
            if let value = number("appleExerciseTimeGoal") { summary.exerciseTimeGoal = HKQuantity(unit: .minute(), doubleValue: value) }
            if let value = number("appleStandHours") { summary.appleStandHours = HKQuantity(unit: .count(), doubleValue: value) }
            if let value = number("appleStandHoursGoal") { summary.standHoursGoal = HKQuantity(unit: .count(), doubleValue: value) }
            summaries.append(summary)
        }
    }
}
