package import Foundation
package import HealthModel
package import HealthStore

/// Streams an Apple Health `export.xml` into store rows and HealthKit objects, in constant memory: `Record`s (quantity
/// and category, with their `MetadataEntry`s) become rows read straight from the file's bytes (`ExportRecordReader`);
/// `Correlation`s (their nested Records are the same samples as the top-level copies and get the same UUIDs, so they are
/// stored once), `Workout`s, `Me` characteristics and `ActivitySummary`s become objects. Each UUID is derived from what
/// the object is (type, source, instants, value in the type's canonical unit, device), so importing the same data twice
/// — or an overlapping newer export, whose dates carry another UTC offset or whose units follow another preference —
/// yields the same UUIDs.
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

    /// Samples to store together: plain records as rows, correlations (holding their members) and workouts as objects.
    package struct Batch: Sendable {
        package var rows: [ImportedSample] = []
        package var objects: [HKObject] = []
        /// Workout routes, after the workouts they belong to.
        package var routes: [SampleStore.ImportedRoute] = []
        /// Elements the model does not hold, kept as written.
        package var elements: [ExportElement] = []
        /// The `creationDate` of objects and routes (seconds since 2001), by UUID: their save time in the store.
        package var created: [UUID: Double] = [:]
        /// The UUIDs an import before identities held the creation date gave objects and routes, by their UUID now (only
        /// for a store that holds such imports).
        package var legacy: [UUID: UUID] = [:]
        /// Children of objects kept as written and written back inside them (a vision prescription's `Attachment`s), by UUID.
        package var extras: [UUID: String] = [:]
        package var count: Int { rows.count + objects.count + routes.count + elements.count }
    }

    /// What the reader hands over as it goes.
    package struct Sink {
        /// A batch of samples to store.
        package var batch: (Batch) throws -> Void
        /// The `Me` element's attributes.
        /// `<Me>`'s attributes and its line.
        package var me: ([String: String], Int) throws -> Void
        package var activitySummaries: ([HKActivitySummary]) throws -> Void
        /// The medications the person tracks, each as soon as read (before the dose events that name it are stored).
        package var medications: ([HKUserAnnotatedMedication]) throws -> Void = { _ in }
        /// Bytes of export.xml read and objects read so far, after each chunk of the file.
        package var progress: (Int, Int) -> Void = { _, _ in }

        package init(batch: @escaping (Batch) throws -> Void, me: @escaping ([String: String], Int) throws -> Void,
                     activitySummaries: @escaping ([HKActivitySummary]) throws -> Void,
                     progress: @escaping (Int, Int) -> Void = { _, _ in }) {
            self.batch = batch
            self.me = me
            self.activitySummaries = activitySummaries
            self.progress = progress
        }
    }

    /// What was read.
    package struct Summary: Sendable {
        /// Objects read, by type identifier (correlation members counted under their own type, once).
        package var read: [String: Int] = [:]
        /// The unit of the latest record of each quantity type (the person's preferred unit when they exported).
        package var units: [String: (unit: String, start: Double)] = [:]
        /// Elements kept as written, by element name (`Record` for unknown record types).
        package var kept: [String: Int] = [:]
        package var problems: [Problem] = []
        /// How many problems of each reason (problems past the first 1,000 are only counted).
        package var problemCounts: [String: Int] = [:]
        /// The person's time zone when they last recorded something: the `HKTimeZone` of the latest sample that has
        /// one, with that sample's start (seconds since 2001).
        package var timeZone: (identifier: String, start: Double)?
        /// Correlation members the export holds twice, alike down to their creation date (each counted in `read`).
        package var exactCopies = 0
        /// The export's `<ClinicalRecord>` rows (their resources are in `clinical-records/`), read in the same pass.
        package var clinicalRecords: [ExportClinicalRow] = []
    }

    let batchSize: Int
    /// Whether to give each object also the UUID imports gave it before identities held the creation date.
    let legacyIdentities: Bool
    /// The most export.xml one element held in memory until its end tag may span (a Record with its metadata, a
    /// Correlation, a Workout with its events and inline route, an element kept as written), from its `<` to its last
    /// child's: past it the import stops, naming the element and its line, instead of growing without bound.
    let maximumElementBytes: Int
    /// The most one piece of markup may be (see `XMLStartTagScanner.maximumTokenBytes`).
    let maximumTokenBytes: Int

    /// The default `maximumElementBytes`, 64 MiB: Apple's records are under 4 KB; a workout of a day at one inline
    /// route point a second (exports up to version 8) ≈ 20 MB.
    package static let defaultMaximumElementBytes = 64 << 20

    package init(batchSize: Int = 10_000, legacyIdentities: Bool = false, maximumElementBytes: Int = defaultMaximumElementBytes,
                 maximumTokenBytes: Int = XMLStartTagScanner.defaultMaximumTokenBytes) {
        self.batchSize = batchSize
        self.legacyIdentities = legacyIdentities
        self.maximumElementBytes = maximumElementBytes
        self.maximumTokenBytes = maximumTokenBytes
    }

    /// The average length in bytes of the `<Record>`s at the start of an export.xml (from one record's start to the
    /// next's, in the first megabyte after the DTD), or nil when it holds fewer than 100 there or is not a regular file
    /// (a pipe cannot be read twice).
    package static func averageRecordLength(of export: ExportLocation) -> Int? {
        guard export.xmlCanBeReadTwice, let stream = try? export.openXML() else { return nil }
        // The DTD comes first (≈ 10 KB): read past it.
        var data = [UInt8](repeating: 0, count: 1 << 20 + 64 << 10)
        var filled = 0
        while filled < data.count {
            guard let count = try? data.withUnsafeMutableBytes({ try stream.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[filled...])) }),
                  count > 0 else { break }
            filled += count
        }
        data.removeLast(data.count - filled)
        guard !data.isEmpty else { return nil }
        let marker = Array("<Record ".utf8)
        return data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> Int? in
            var first: Int?, last = 0, count = 0, index = 0
            let end = bytes.count - marker.count
            while index < end {
                if bytes[index] == UInt8(ascii: "<") && bytes[index + 1] == UInt8(ascii: "R")
                    && marker.indices.allSatisfy({ bytes[index + $0] == marker[$0] }) {
                    if first == nil { first = index }
                    last = index
                    count += 1
                    index += marker.count
                } else {
                    index += 1
                }
            }
            guard let first, count >= 100 else { return nil }
            return (last - first) / (count - 1)
        }
    }

    package func read(_ export: ExportLocation, into sink: Sink) throws -> Summary {
        var state = State(batchSize: batchSize, sink: sink, export: export)
        state.records.legacyIdentities = legacyIdentities
        let limit = maximumElementBytes
        try export.scanner(maximumTokenBytes: maximumTokenBytes).scanInPlace { tag in
            // The element held open since `held` may not grow past the limit; one opening now is noted.
            if state.isHolding, let held = state.held {
                guard tag.offset - held.offset <= limit else {
                    throw HKError.invalidArgument("line \(held.line): one <\(held.name)> runs past \(XMLStartTagScanner.mebibytes(limit)) "
                                                  + "of export.xml (to line \(tag.line) and on), the most one element may hold: "
                                                  + "the file was read no further")
                }
            } else {
                state.held = nil
            }
            defer { if state.held == nil && state.isHolding { state.held = (tag.offset, tag.line, tag.name) } }
            if state.outermost == nil { state.outermost = (tag.name, Array(tag.name.utf8), tag.line, tag.selfClosing) }
            // An element kept as written cannot hold these: one starting means its end tag is missing.
            if state.capture != nil, State.notInsideKept.contains(where: tag.nameIs) {
                try state.endUnterminatedCapture(where: "where the next <\(tag.name)> starts")
            }
            if state.capture != nil {
                try state.captureStart(tag)
            } else if tag.nameIs("Record") {
                try state.openRecord(tag)
            } else if tag.nameIs("MetadataEntry"), state.pending != nil {
                guard let key = tag.value("key"), let value = tag.value("value") else {
                    return state.report(line: tag.line, element: "MetadataEntry", reason: "a MetadataEntry without key or value")
                }
                state.pending!.metadata.append((key, value))
                if key == HKMetadataKeyTimeZone { state.noteTimeZone(value, start: state.pending!.row.start) }
            } else if tag.nameIs("HeartRateVariabilityMetadataList"), state.pending != nil {
                try state.beginCapture(tag, name: "HeartRateVariabilityMetadataList", intoRecord: true)
            } else if let kept = State.keptElements.first(where: tag.nameIs) {
                try state.beginCapture(tag, name: kept.description, intoRecord: false)
            } else if State.elements.contains(where: tag.nameIs) {
                try state.start(tag.tag)
            }
        } end: { name in
            if let root = state.outermost, name.elementsEqual(root.bytes) { state.outermost!.closed = true }
            // The end of an element around the one being kept (its root still open): the kept one's end tag is missing.
            if let open = state.capture, open.depth == 1, !name.elementsEqual(open.name.utf8) {
                try state.endUnterminatedCapture(where: "where </\(String(decoding: name, as: UTF8.self))> closes what holds it")
            }
            if state.capture != nil {
                try state.captureEnd(name)
            } else if XMLStartTagScanner.equals(name, 0..<name.count, "Record") {
                try state.closeRecord()
            } else if let element = State.elements.first(where: { XMLStartTagScanner.equals(name, 0..<name.count, $0) }) {
                try state.end(element.description)
            }
        } problem: { line, message in
            state.report(line: line, element: "XML", reason: message)
        } progress: { bytes in
            state.bytesRead = bytes
            sink.progress(bytes, state.samplesRead)
        }
        // A file whose root element never closes was cut short (an interrupted copy or download): what it held past the
        // cut is unknown, so the import must not pass for a complete one.
        if let root = state.outermost, !root.closed {
            throw HKError.invalidArgument("export.xml ends before the <\(root.name)> of line \(root.line) is closed: the file was cut "
                                          + "short (an interrupted copy or download?)")
        }
        try state.closeUnterminated(atEndOf: state.outermost?.name ?? "the file")
        try state.finish()
        return state.summary
    }

    /// The element being read and what it has collected.
    private struct State {
        /// The elements read as objects (Records and their metadata are read in place).
        static let elements: [StaticString] = ["Me", "MetadataEntry", "Correlation", "ActivitySummary", "Workout", "WorkoutEvent",
                                               "WorkoutStatistics", "WorkoutActivity", "WorkoutRoute", "Location",
                                               "FileReference", "ClinicalRecord", "StateOfMind", "ScoredAssessment",
                                               "Audiogram", "SensitivityPoint", "VisionPrescription", "RightEye", "LeftEye", "Attachment",
                                               "Medication", "Coding", "MedicationDoseEvent"]

        /// Top-level elements the model does not hold, kept as written (none today: record types the catalog does not know
        /// are kept as Records).
        static let keptElements: [StaticString] = []

        /// Elements no element kept as written holds (a Record, what stands beside Records): one starting inside it means
        /// the kept element's end tag is missing.
        static let notInsideKept: [StaticString] = ["Record", "Correlation", "Workout", "ActivitySummary", "Me", "ExportDate", "ClinicalRecord",
                                                    "Audiogram", "VisionPrescription", "StateOfMind",
                                                    "ScoredAssessment", "Medication", "MedicationDoseEvent"]

        let batchSize: Int
        let sink: Sink
        var summary = Summary()
        /// Where the outermost element held in memory began, while one is open.
        var held: (offset: Int, line: Int, name: String)?
        /// The file's first element (`HealthData`), and whether its end tag was read.
        var outermost: (name: String, bytes: [UInt8], line: Int, closed: Bool)?
        var isHolding: Bool { capture != nil || pending != nil || correlation != nil || workout != nil || own != nil }
        /// An element being kept as written, with its children: where it goes, its XML so far, and how deep it is open.
        var capture: (name: String, intoRecord: Bool, xml: String, depth: Int)?
        var samplesRead = 0
        /// Bytes of export.xml read so far, and when the last batch was handed over: a batch is also full after
        /// `batchBytes` of XML, so that a run of large objects (workouts with hundreds of events) stays small in memory.
        var bytesRead = 0, bytesAtLastBatch = 0
        static let batchBytes = 4 << 20
        var run = (type: "", count: 0)
        var batch = Batch()
        /// The `creationDate` of the open Correlation's member Records (seconds since 2001), until the Correlation is added.
        var memberCreated: [UUID: Double] = [:]
        /// The legacy UUIDs of the open Correlation's member Records.
        var memberLegacy: [UUID: UUID] = [:]
        var summaries: [HKActivitySummary] = []
        var records = ExportRecordReader()
        /// An open Record (top level or inside a Correlation) and its metadata entries so far.
        var pending: ExportRecordReader.Open?
        /// An open Correlation and its members so far.
        var correlation: (attributes: [String: String], line: Int, metadata: [(String, String)], members: [HKSample])?
        /// The export: `FileReference` paths lead to files beside export.xml.
        let export: ExportLocation
        /// An open Workout, its open WorkoutActivity, WorkoutEvent and WorkoutRoute.
        var workout: OpenWorkout?
        var activity: OpenWorkout?
        var event: (attributes: [String: String], line: Int, metadata: [(String, String)])?
        var route: OpenRoute?
        /// An open element read whole before it becomes a sample (Audiogram, VisionPrescription; OpenHealthKit's own
        /// StateOfMind and ScoredAssessment), its metadata entries and its children so far (an audiogram's sensitivity
        /// points, a prescription's eyes and attachments).
        var own: OwnElement?
        /// The medications this file declared so far (`<Medication>`, by identifier): a dose event names one of them.
        var medications: Set<String> = []
        typealias OwnElement = (name: String, attributes: [String: String], line: Int, metadata: [(String, String)],
                                children: [(name: String, attributes: [String: String])])

        /// A WorkoutRoute being read: its attributes, metadata, inline `Location`s (exports up to v8) and GPX files (later).
        struct OpenRoute {
            var attributes: [String: String]
            var line: Int
            var metadata: [(String, String)] = []
            var locations: [CLLocation] = []
            var files: [String] = []
        }

        /// What a Workout or WorkoutActivity has collected.
        struct OpenWorkout {
            var attributes: [String: String]
            var line: Int
            var metadata: [(String, String)] = []
            var events: [HKWorkoutEvent] = []
            var statistics: [HKQuantityType: HKStatistics] = [:]
            var activities: [HKWorkoutActivity] = []
            var routes: [(route: OpenRoute, locations: [CLLocation])] = []
        }

        init(batchSize: Int, sink: Sink, export: ExportLocation) {
            self.batchSize = batchSize
            self.sink = sink
            self.export = export
        }

        mutating func start(_ tag: XMLStartTagScanner.Tag) throws {
            switch tag.name {
            case "MetadataEntry":
                guard let key = tag.attributes["key"], let value = tag.attributes["value"] else {
                    return report(line: tag.line, element: "MetadataEntry", reason: "a MetadataEntry without key or value")
                }
                if own != nil { own!.metadata.append((key, value)) }
                else if event != nil { event!.metadata.append((key, value)) }
                else if route != nil { route!.metadata.append((key, value)) }
                else if activity != nil { activity!.metadata.append((key, value)) }
                else if workout != nil {
                    workout!.metadata.append((key, value))
                    if key == HKMetadataKeyTimeZone, let start = workout!.attributes["startDate"].flatMap(ExportDates.parse) {
                        noteTimeZone(value, start: start.timeIntervalSinceReferenceDate)
                    }
                }
                else if correlation != nil { correlation!.metadata.append((key, value)) }
            case "Correlation":
                try closeUnterminated(before: "Correlation")
                correlation = (tag.attributes, tag.line, [], [])
                if tag.selfClosing { try end("Correlation") }
            case "Me":
                try sink.me(tag.attributes, tag.line)
            case "ActivitySummary":
                activitySummary(tag)
            case "Workout":
                try closeUnterminated(before: "Workout")
                workout = OpenWorkout(attributes: tag.attributes, line: tag.line)
                if tag.selfClosing { try end("Workout") }
            case "WorkoutActivity" where workout != nil:
                try closeUnterminated(before: "WorkoutActivity")
                activity = OpenWorkout(attributes: tag.attributes, line: tag.line)
                if tag.selfClosing { try end("WorkoutActivity") }
            case "WorkoutEvent" where workout != nil:
                try closeUnterminated(before: "WorkoutEvent")
                event = (tag.attributes, tag.line, [])
                if tag.selfClosing { try end("WorkoutEvent") }
            case "WorkoutStatistics" where workout != nil:
                if let (type, statistics) = workoutStatistics(tag) {
                    if activity != nil { activity!.statistics[type] = statistics } else { workout!.statistics[type] = statistics }
                }
            case "WorkoutRoute" where workout != nil:
                try closeUnterminated(before: "WorkoutRoute")
                route = OpenRoute(attributes: tag.attributes, line: tag.line)
                if tag.selfClosing { try end("WorkoutRoute") }
            case "Location" where route != nil:
                if let location = location(tag) { route!.locations.append(location) }
            case "FileReference" where route != nil:
                if let path = tag.attributes["path"], !path.isEmpty { route!.files.append(path) }
            case "SensitivityPoint" where own?.name == "Audiogram":
                own!.children.append((tag.name, tag.attributes))
            case "RightEye", "LeftEye", "Attachment" where own?.name == "VisionPrescription":
                own!.children.append((tag.name, tag.attributes))
            case "Coding" where own?.name == "Medication":
                own!.children.append((tag.name, tag.attributes))
            case "StateOfMind", "ScoredAssessment", "Audiogram", "VisionPrescription", "Medication", "MedicationDoseEvent":
                try closeUnterminated(before: tag.name)
                own = (tag.name, tag.attributes, tag.line, [], [])
                if tag.selfClosing { try end(tag.name) }
            case "ClinicalRecord":
                summary.clinicalRecords.append(ExportClinicalRow(attributes: tag.attributes, line: tag.line))
            default:
                break
            }
        }

        mutating func end(_ name: String) throws {
            switch name {
            case "Correlation":
                guard let open = correlation else { return }
                correlation = nil
                if let made = correlationSample(open) {
                    try add(made, created: open.attributes["creationDate"])
                    // A member written twice, alike down to its creation date, is one sample: an exact copy, counted as
                    // at the top level (the correlation's set of members holds it once).
                    var seen = Set<UUID>()
                    for member in open.members where !seen.insert(member.uuid).inserted {
                        count(member.sampleType.identifier)
                        summary.exactCopies += 1
                    }
                }
                memberCreated.removeAll()
                memberLegacy.removeAll()
            case "VisionPrescription":
                guard let open = own, open.name == name else { return }
                own = nil
                if let (made, attachments) = prescriptionSample(open) {
                    try add(made, created: nil)
                    if let attachments { batch.extras[made.uuid] = attachments }
                }
            case "Medication":
                guard let open = own, open.name == name else { return }
                own = nil
                if let made = medication(open) {
                    medications.insert(made.medication.identifier.underlyingIdentifier)
                    summary.read[HKDataTypeIdentifierUserAnnotatedMedicationConcept, default: 0] += 1
                    try sink.medications([made])
                }
            case "MedicationDoseEvent":
                guard let open = own, open.name == name else { return }
                own = nil
                if let made = doseEventSample(open) { try add(made, created: open.attributes["creationDate"]) }
            case "StateOfMind", "ScoredAssessment", "Audiogram":
                guard let open = own, open.name == name else { return }
                own = nil
                let made: HKSample? = switch name {
                case "StateOfMind": stateOfMindSample(open)
                case "ScoredAssessment": assessmentSample(open)
                default: audiogramSample(open)
                }
                if let made { try add(made, created: open.attributes["creationDate"]) }
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
                guard let open = route else { return }
                route = nil
                if let locations = routeLocations(open) { workout?.routes.append((open, locations)) }
            case "Workout":
                guard let open = workout else { return }
                workout = nil
                guard let made = workoutSample(open) else { return }
                try add(made, created: open.attributes["creationDate"])
                for (route, locations) in open.routes {
                    if let made = workoutRoute(route, locations: locations, of: made) { try add(made, created: route.attributes["creationDate"]) }
                }
            default:
                break
            }
        }

        /// Ends the elements still open that cannot hold `name`, which opens now: their end tags are missing (a damaged
        /// file), so each is taken as ended here and reported, and what it read is stored rather than silently replaced.
        mutating func closeUnterminated(before name: String) throws {
            // The common case, on every Record: nothing is open.
            guard pending != nil || own != nil || (name != "Record" && (correlation != nil || workout != nil)) else { return }
            try closeUnterminated(name, where: "where the next <\(name)> starts")
        }

        /// Ends every element still open when the file's root closes.
        mutating func closeUnterminated(atEndOf root: String) throws {
            if let open = capture {
                // Its XML is unfinished: kept, it would be written back broken.
                report(line: held?.line ?? 0, element: open.intoRecord ? "XML" : open.name, reason: "<\(open.name)> has no end tag: left out")
                capture = nil
            }
            try closeUnterminated("Workout", where: "at the end of <\(root)>")
        }

        private mutating func closeUnterminated(_ name: String, where place: String) throws {
            func unterminated(_ element: String, _ line: Int) {
                report(line: line, element: "XML", reason: "<\(element)> has no end tag: taken as ended \(place)")
            }
            // Innermost first: a Correlation's member before the Correlation, a workout's parts before the Workout.
            let order = ["Own", "Record", "Correlation", "WorkoutEvent", "WorkoutRoute", "WorkoutActivity", "Workout"]
            // What `name` can be inside: a Record in a Correlation; a workout's parts in a Workout (an event also in an
            // activity).
            // OpenHealthKit's own elements ("Own": StateOfMind, ScoredAssessment) stand beside Records and hold none: any of
            // them starting ends one left open.
            let closes: [String] = switch name {
            case "Record": ["Own", "Record"]
            case "Correlation": ["Own", "Record", "Correlation"]
            case "Workout", "StateOfMind", "ScoredAssessment", "Audiogram", "Medication", "MedicationDoseEvent":
                ["Own", "Record", "Correlation", "WorkoutEvent", "WorkoutRoute", "WorkoutActivity", "Workout"]
            case "WorkoutActivity": ["WorkoutEvent", "WorkoutRoute", "WorkoutActivity"]
            default: [name]
            }
            for element in order where closes.contains(element) {
                switch element {
                case "Own": if let open = own { unterminated(open.name, open.line); try end(open.name) }
                case "Record": if let open = pending { unterminated(element, open.line); try closeRecord() }
                case "Correlation": if let open = correlation { unterminated(element, open.line); try end(element) }
                case "Workout": if let open = workout { unterminated(element, open.line); try end(element) }
                case "WorkoutActivity": if let open = activity { unterminated(element, open.line); try end(element) }
                case "WorkoutEvent": if let open = event { unterminated(element, open.line); try end(element) }
                case "WorkoutRoute": if let open = route { unterminated(element, open.line); try end(element) }
                default: break
                }
            }
        }

        mutating func finish() throws {
            if run.count > 0 { summary.read[run.type, default: 0] += run.count }
            run = ("", 0)
            if batch.count > 0 { try sink.batch(batch) }
            batch = Batch()
            if !summaries.isEmpty { try sink.activitySummaries(summaries) }
        }

        mutating func add(_ object: HKObject, created: String?) throws {
            if let sample = object as? HKSample { count(sample.sampleType.identifier) }
            for member in (object as? HKCorrelation)?.objects ?? [] {
                count(member.sampleType.identifier)
                if let time = memberCreated.removeValue(forKey: member.uuid) { batch.created[member.uuid] = time }
                if let legacy = memberLegacy[member.uuid] { batch.legacy[member.uuid] = legacy }
            }
            // Without a creation date, created at its end (see `creationKey`).
            if let time = created.flatMap(ExportDates.parse) ?? (object as? HKSample)?.endDate {
                batch.created[object.uuid] = time.timeIntervalSinceReferenceDate
            }
            batch.objects.append(object)
            try flushIfFull()
        }

        mutating func add(_ route: SampleStore.ImportedRoute, created: String?) throws {
            count(route.route.sampleType.identifier)
            if let time = created.flatMap(ExportDates.parse) ?? route.route.endDate as Date? {
                batch.created[route.route.uuid] = time.timeIntervalSinceReferenceDate
            }
            batch.routes.append(route)
            try flushIfFull()
        }

        mutating func add(_ row: ImportedSample) throws {
            count(row.type)
            if let unit = row.unit, row.start >= summary.units[row.type]?.start ?? -.infinity { summary.units[row.type] = (unit, row.start) }
            batch.rows.append(row)
            try flushIfFull()
        }

        /// Counts a sample read; runs of one type are added up before touching the dictionary.
        mutating func count(_ type: String) {
            samplesRead += 1
            if type == run.type { run.count += 1; return }
            if run.count > 0 { summary.read[run.type, default: 0] += run.count }
            run = (type, 1)
        }

        mutating func flushIfFull() throws {
            // Small batches first, so the writer starts soon (a small export is read in a fraction of a second), then
            // up to `batchSize`, so that each transaction's fixed costs are shared by many rows.
            let size = min(batchSize, max(2_000, samplesRead / 4))
            guard batch.count >= size || (bytesRead - bytesAtLastBatch >= Self.batchBytes && !batch.objects.isEmpty) else { return }
            bytesAtLastBatch = bytesRead
            try sink.batch(batch)
            batch = Batch()
            batch.rows.reserveCapacity(batchSize)
        }

        mutating func noteTimeZone(_ identifier: String, start: Double) {
            if start >= summary.timeZone?.start ?? -.infinity { summary.timeZone = (identifier, start) }
        }

        mutating func report(line: Int, element: String, reason: String) {
            summary.problemCounts[reason, default: 0] += 1
            if summary.problems.count < 1_000 { summary.problems.append(Problem(line: line, element: element, reason: reason)) }
        }

        /// Reports `element` when one of its date attributes `keys` is written but is not a possible date (30 February,
        /// an offset of +9999): true when it must be left out rather than have its date silently replaced or moved.
        mutating func hasImpossibleDate(_ a: [String: String], line: Int, element: String, _ keys: String...) -> Bool {
            for key in keys where a[key].map({ ExportDates.parse($0) == nil }) ?? false {
                report(line: line, element: element, reason: ExportRecordReader.dateReason(key, of: element))
                return true
            }
            return false
        }

        // MARK: Records

        mutating func openRecord(_ tag: XMLStartTagScanner.RawTag) throws {
            try closeUnterminated(before: "Record")
            switch records.open(tag) {
            case .success(let open):
                pending = open
                if tag.selfClosing { try closeRecord() }
            case .failure(let reason):
                pending = nil
                report(line: tag.line, element: "Record", reason: reason.text)
                if reason.unknownType { try beginCapture(tag, name: "Record", intoRecord: false) }
            }
        }

        // MARK: Elements kept as written

        mutating func beginCapture(_ tag: XMLStartTagScanner.RawTag, name: String, intoRecord: Bool) throws {
            capture = (name, intoRecord, tag.xml, tag.selfClosing ? 0 : 1)
            if tag.selfClosing { try finishCapture() }
        }

        mutating func captureStart(_ tag: XMLStartTagScanner.RawTag) throws {
            capture!.xml += tag.xml
            if !tag.selfClosing { capture!.depth += 1 }
        }

        mutating func captureEnd(_ name: UnsafeBufferPointer<UInt8>) throws {
            capture!.xml += "</" + String(decoding: name, as: UTF8.self) + ">"
            capture!.depth -= 1
            if capture!.depth == 0 { try finishCapture() }
        }

        /// Ends the element being kept, whose end tag is missing, `place`: with all its children closed it is taken as
        /// ended there and kept; otherwise (its XML would be written back broken) it is left out. Either is reported.
        mutating func endUnterminatedCapture(where place: String) throws {
            guard let open = capture else { return }
            let line = open.intoRecord ? pending?.line ?? held?.line ?? 0 : held?.line ?? 0
            guard open.depth == 1 else {
                report(line: line, element: open.intoRecord ? "XML" : open.name, reason: "<\(open.name)> has no end tag: left out")
                capture = nil
                return
            }
            report(line: line, element: "XML", reason: "<\(open.name)> has no end tag: taken as ended \(place)")
            capture!.xml += "</\(open.name)>"
            capture!.depth = 0
            try finishCapture()
        }

        mutating func finishCapture() throws {
            guard let done = capture else { return }
            capture = nil
            if done.intoRecord {
                let before = pending?.extra ?? ""
                pending?.extra = before + done.xml
            } else {
                batch.elements.append(ExportElement(name: done.name, xml: done.xml))
                summary.kept[done.name, default: 0] += 1
                try flushIfFull()
            }
        }

        /// A Record has ended: a row to store, or a member of the open Correlation.
        mutating func closeRecord() throws {
            guard let open = pending else { return }
            pending = nil
            let row = records.close(open)
            guard correlation != nil else { return try add(row) }
            if let member = sample(row) {
                correlation!.members.append(member)
                if let created = row.created { memberCreated[member.uuid] = created }
                if let legacy = row.legacyUUID { memberLegacy[member.uuid] = legacy }
            }
        }

        /// A row as a HealthKit sample, for a Correlation that holds it.
        mutating func sample(_ row: ImportedSample) -> HKSample? {
            let uuid = row.uuid
            let start = Date(timeIntervalSinceReferenceDate: row.start), end = Date(timeIntervalSinceReferenceDate: row.end)
            switch HKObjectType.type(forIdentifier: row.type) {
            case let type as HKQuantityType:
                guard let value = row.originalValue, let unit = row.unit.flatMap({ records.unit($0) }) else { return nil }
                return HKQuantitySample.make(type: type, quantity: HKQuantity(unit: unit, doubleValue: value), start: start, end: end,
                                             uuid: uuid, metadata: row.metadata, sourceRevision: row.revision, device: row.device)
            case let type as HKCategoryType:
                return HKCategorySample(type: type, value: storedInteger(row.value), start: start, end: end, uuid: uuid, metadata: row.metadata,
                                        sourceRevision: row.revision, device: row.device)
            default:
                return nil
            }
        }

        mutating func correlationSample(_ open: (attributes: [String: String], line: Int, metadata: [(String, String)], members: [HKSample])) -> HKSample? {
            let a = open.attributes
            guard let typeName = a["type"], let type = HKObjectType.type(forIdentifier: typeName) as? HKCorrelationType else {
                report(line: open.line, element: "Correlation", reason: "unknown correlation type \(a["type"] ?? "")")
                return nil
            }
            if hasImpossibleDate(a, line: open.line, element: "Correlation", "startDate", "endDate", "creationDate") { return nil }
            guard let sourceName = a["sourceName"] ?? a["source"],
                  let start = a["startDate"].flatMap(ExportDates.parse), let end = a["endDate"].flatMap(ExportDates.parse), end >= start else {
                report(line: open.line, element: "Correlation", reason: "a Correlation without source or valid dates")
                return nil
            }
            guard !open.members.isEmpty else {
                report(line: open.line, element: "Correlation", reason: "a Correlation without readable Records")
                return nil
            }
            let device = records.device(a["device"])
            let members = open.members.map(\.uuid.uuidString).sorted().joined(separator: ",")
            let key = "Correlation|\(typeName)|\(sourceName)|\(start.timeIntervalSince1970)|\(end.timeIntervalSince1970)|"
            let uuid = ExportSources.stableUUID(key + members + creationKey(a), start: start)
            if records.legacyIdentities {
                let legacyMembers = open.members.map { (memberLegacy[$0.uuid] ?? $0.uuid).uuidString }.sorted().joined(separator: ",")
                batch.legacy[uuid] = ExportSources.stableUUID(key + legacyMembers, start: start)
            }
            return HKCorrelation(type: type, start: start, end: end, objects: Set(open.members), uuid: uuid,
                                 metadata: ExportMetadata.typed(open.metadata),
                                 sourceRevision: records.revision(sourceName, a["sourceVersion"], device), device: device)
        }

        /// A `<Medication>` (OpenHealthKit's element; see ExportWriter) as the medication the person tracks.
        mutating func medication(_ open: OwnElement) -> HKUserAnnotatedMedication? {
            let a = open.attributes
            var codings: Set<HKClinicalCoding> = []
            for (_, attributes) in open.children {
                codings.insert(HKClinicalCoding(system: attributes["system"] ?? "", version: attributes["version"], code: attributes["code"] ?? ""))
            }
            do {
                let concept = try HKMedicationConcept.validated(identifier: a["identifier"] ?? "", displayText: a["displayText"] ?? "",
                                                                generalForm: HKMedicationGeneralForm(rawValue: a["generalForm"] ?? ""),
                                                                relatedCodings: codings)
                return HKUserAnnotatedMedication(nickname: a["nickname"].flatMap { $0.isEmpty ? nil : $0 }, isArchived: a["isArchived"] == "1",
                                                 hasSchedule: a["hasSchedule"] == "1", medication: concept)
            } catch let error as HKError {
                report(line: open.line, element: "Medication", reason: error.message)
            } catch {
                report(line: open.line, element: "Medication", reason: "\(error)")
            }
            return nil
        }

        /// A `<MedicationDoseEvent>` (OpenHealthKit's element; see ExportWriter) as the sample; its medication must be one
        /// the file declared before it.
        mutating func doseEventSample(_ open: OwnElement) -> HKMedicationDoseEvent? {
            let a = open.attributes
            let element = "MedicationDoseEvent"
            if hasImpossibleDate(a, line: open.line, element: element, "startDate", "endDate", "creationDate", "scheduledDate") { return nil }
            guard let sourceName = a["sourceName"], let start = a["startDate"].flatMap(ExportDates.parse),
                  let end = a["endDate"].flatMap(ExportDates.parse) else {
                report(line: open.line, element: element, reason: "a MedicationDoseEvent without source or valid dates")
                return nil
            }
            guard let medication = a["medication"], medications.contains(medication) else {
                report(line: open.line, element: element, reason: "a MedicationDoseEvent of medication \(a["medication"] ?? "(none)"), which no Medication before it declares")
                return nil
            }
            guard let schedule = a["scheduleType"].flatMap({ ExportNames.stateOfMindValue($0[...], prefix: "HKMedicationDoseEventScheduleType",
                                                                                        as: HKMedicationDoseEvent.ScheduleType.self) }),
                  let status = a["logStatus"].flatMap({ ExportNames.stateOfMindValue($0[...], prefix: "HKMedicationDoseEventLogStatus",
                                                                                    as: HKMedicationDoseEvent.LogStatus.self) }) else {
                report(line: open.line, element: element, reason: "a MedicationDoseEvent of unknown scheduleType \(a["scheduleType"] ?? "") or logStatus \(a["logStatus"] ?? "")")
                return nil
            }
            guard let unit = a["unit"].flatMap({ try? HKUnit.parse($0) }) else {
                report(line: open.line, element: element, reason: "a MedicationDoseEvent whose unit \(a["unit"] ?? "(none)") is not a unit")
                return nil
            }
            func number(_ key: String) -> Double?? {
                guard let text = a[key] else { return .some(nil) }
                return Double(text).map { .some($0) } ?? nil
            }
            guard let scheduledDose = number("scheduledDoseQuantity"), let dose = number("doseQuantity") else {
                report(line: open.line, element: element, reason: "a MedicationDoseEvent whose dose is not a number")
                return nil
            }
            let scheduled = a["scheduledDate"].flatMap(ExportDates.parse)
            let device = records.device(a["device"])
            let key = "MedicationDoseEvent|\(medication)|\(status.rawValue)|\(schedule.rawValue)|\(scheduled?.timeIntervalSince1970 ?? 0)|"
                + "\(sourceName)|\(start.timeIntervalSince1970)|\(end.timeIntervalSince1970)"
            do {
                return try HKMedicationDoseEvent.validated(
                    scheduleType: schedule, medication: .medication(medication), scheduledDate: scheduled, scheduledDoseQuantity: scheduledDose,
                    doseQuantity: dose, logStatus: status, unit: unit, start: start, end: end,
                    uuid: ExportSources.stableUUID(key + creationKey(a), start: start), metadata: ExportMetadata.typed(open.metadata),
                    sourceRevision: records.revision(sourceName, a["sourceVersion"], device))
            } catch let error as HKError {
                report(line: open.line, element: element, reason: error.message)
            } catch {
                report(line: open.line, element: element, reason: "\(error)")
            }
            return nil
        }

        /// A `<StateOfMind>` (OpenHealthKit's element; see ExportDTD) as the sample.
        mutating func stateOfMindSample(_ open: OwnElement) -> HKStateOfMind? {
            let a = open.attributes
            if hasImpossibleDate(a, line: open.line, element: "StateOfMind", "startDate", "endDate", "creationDate") { return nil }
            guard let sourceName = a["sourceName"], let start = a["startDate"].flatMap(ExportDates.parse),
                  let end = a["endDate"].flatMap(ExportDates.parse), end == start else {
                report(line: open.line, element: "StateOfMind", reason: "a StateOfMind without source or one valid date")
                return nil
            }
            guard let kind = a["kind"].flatMap({ ExportNames.stateOfMindValue($0[...], prefix: "HKStateOfMindKind", as: HKStateOfMind.Kind.self) }) else {
                report(line: open.line, element: "StateOfMind", reason: "a StateOfMind of unknown kind \(a["kind"] ?? "")")
                return nil
            }
            guard let valence = a["valence"].flatMap(Double.init), (try? HKStateOfMind.checkValence(valence)) != nil else {
                report(line: open.line, element: "StateOfMind", reason: "a StateOfMind whose valence is \(a["valence"] ?? "") (not from -1 to 1)")
                return nil
            }
            func values<E: RawRepresentable>(_ key: String, _ prefix: String, _ type: E.Type) -> [E]? where E.RawValue == Int {
                var made: [E] = []
                for name in (a[key] ?? "").split(separator: " ") {
                    guard let value = ExportNames.stateOfMindValue(name, prefix: prefix, as: type) else {
                        report(line: open.line, element: "StateOfMind", reason: "a StateOfMind with unknown \(key) \(name)")
                        return nil
                    }
                    made.append(value)
                }
                return made
            }
            guard let labels = values("labels", "HKStateOfMindLabel", HKStateOfMind.Label.self),
                  let associations = values("associations", "HKStateOfMindAssociation", HKStateOfMind.Association.self) else { return nil }
            let device = records.device(a["device"])
            let key = "StateOfMind|\(kind.rawValue)|\(valence)|\(HKStateOfMind.rawList(labels))|\(HKStateOfMind.rawList(associations))|"
                + "\(sourceName)|\(start.timeIntervalSince1970)"
            return HKStateOfMind(date: start, kind: kind, valence: valence, labels: labels, associations: associations,
                                 uuid: ExportSources.stableUUID(key + creationKey(a), start: start), metadata: ExportMetadata.typed(open.metadata),
                                 sourceRevision: records.revision(sourceName, a["sourceVersion"], device), device: device)
        }

        /// An `<Audiogram>` as Apple's export writes it, its `<SensitivityPoint>`s in frequency order; a bad point leaves the
        /// whole audiogram out, reported with its line.
        mutating func audiogramSample(_ open: OwnElement) -> HKAudiogramSample? {
            let a = open.attributes
            if hasImpossibleDate(a, line: open.line, element: "Audiogram", "startDate", "endDate", "creationDate") { return nil }
            guard let sourceName = a["sourceName"] ?? a["source"], let start = a["startDate"].flatMap(ExportDates.parse),
                  let end = a["endDate"].flatMap(ExportDates.parse), end >= start else {
                report(line: open.line, element: "Audiogram", reason: "an Audiogram without source or valid dates")
                return nil
            }
            do {
                let points = try open.children.filter { $0.name == "SensitivityPoint" }.map(\.attributes).map { p -> HKAudiogramSensitivityPoint in
                    guard let value = p["frequencyValue"].flatMap(Double.init) else {
                        throw HKError.invalidArgument("a SensitivityPoint without a frequencyValue")
                    }
                    let unit = try HKUnit.parse(p["frequencyUnit"] ?? "Hz")
                    var tests: [HKAudiogramSensitivityTest] = []
                    for (side, name) in [(HKAudiogramSensitivityTestSide.left, "leftEar"), (.right, "rightEar")] {
                        guard let text = p[name + "Value"] else { continue }
                        guard let sensitivity = Double(text) else { throw HKError.invalidArgument("\(name)Value \(text) is not a number") }
                        let lower = p[name + "ClampingRangeLowerBound"].flatMap(Double.init)
                        let upper = p[name + "ClampingRangeUpperBound"].flatMap(Double.init)
                        let masked = ["1", "true", "YES", "yes"].contains(p[name + "Masked"] ?? "")
                        tests.append(try HKAudiogramSensitivityTest(
                            sensitivity: HKQuantity(unit: try HKUnit.parse(p[name + "Unit"] ?? "dBHL"), doubleValue: sensitivity), type: .air,
                            masked: masked, side: side,
                            clampingRange: lower == nil && upper == nil ? nil : try HKAudiogramSensitivityPointClampingRange(lowerBound: lower, upperBound: upper)))
                    }
                    return try HKAudiogramSensitivityPoint(frequency: HKQuantity(unit: unit, doubleValue: value), tests: tests)
                }
                try HKAudiogramSample.checkPoints(points)
                let device = records.device(a["device"])
                let key = "Audiogram|\(sourceName)|\(start.timeIntervalSince1970)|\(end.timeIntervalSince1970)|\(HKAudiogramSensitivityPoint.json(points))"
                return HKAudiogramSample(sensitivityPoints: points, start: start, end: end,
                                         uuid: ExportSources.stableUUID(key + creationKey(a), start: start), metadata: ExportMetadata.typed(open.metadata),
                                         sourceRevision: records.revision(sourceName, a["sourceVersion"], device), device: device)
            } catch let error as HKError {
                report(line: open.line, element: "Audiogram", reason: error.message)
            } catch {
                report(line: open.line, element: "Audiogram", reason: "\(error)")
            }
            return nil
        }

        /// A `<VisionPrescription>` (export v12 on): `type`, `dateIssued`, `expirationDate` and, for contacts, `brand`; a
        /// `<RightEye>` and `<LeftEye>` with each value and its unit (diopters, degrees, millimetres and prism diopters when
        /// the unit is left out); `<Attachment>`s, whose photos the export does not hold, kept as written (returned as the
        /// XML to write back). Apple writes no source: the person enters prescriptions in the Health app, whose source it
        /// takes. A bad value leaves the prescription out, reported with its line.
        mutating func prescriptionSample(_ open: OwnElement) -> (HKVisionPrescription, String?)? {
            let a = open.attributes
            if hasImpossibleDate(a, line: open.line, element: "VisionPrescription", "dateIssued", "expirationDate") { return nil }
            let typeName = a["type"] ?? ""
            let type: HKVisionPrescriptionType? = switch typeName.lowercased() {
            case "hkvisionprescriptiontypeglasses", "glasses", "1": .glasses
            case "hkvisionprescriptiontypecontacts", "contacts", "2": .contacts
            default: nil
            }
            guard let type else {
                report(line: open.line, element: "VisionPrescription", reason: "a VisionPrescription of unknown type \"\(typeName)\"")
                return nil
            }
            guard let issued = a["dateIssued"].flatMap(ExportDates.parse) else {
                report(line: open.line, element: "VisionPrescription", reason: "a VisionPrescription without its dateIssued")
                return nil
            }
            let expires = a["expirationDate"].flatMap(ExportDates.parse)
            do {
                func lens(_ side: String) throws -> HKLensSpecification.Stored? {
                    guard let e = open.children.last(where: { $0.name == side })?.attributes else { return nil }
                    func value(_ name: String, _ unit: HKUnit) throws -> Double? {
                        guard let text = e[name] else { return nil }
                        guard let number = Double(text), number.isFinite else {
                            throw HKError.invalidArgument("its \(side) \(name) \"\(text)\" is not a number")
                        }
                        let given = try e[name + "Unit"].map { try HKUnit.parse($0) } ?? unit
                        guard given.isCompatible(with: unit) else {
                            throw HKError.invalidArgument("its \(side) \(name)Unit \"\(given.unitString)\" is not a unit of \(unit.unitString)")
                        }
                        return try given.convert(number, to: unit)
                    }
                    let mm = HKUnit.meterUnit(with: .milli)
                    guard let sphere = try value("sphere", .diopter()) else { throw HKError.invalidArgument("its \(side) has no sphere") }
                    let prism = try value("prismAmount", .prismDiopter()).map { amount in
                        HKVisionPrism.Stored(amount: amount, angle: try value("prismAngle", .degreeAngle()) ?? 0, eye: side == "RightEye" ? 2 : 1)
                    }
                    return HKLensSpecification.Stored(
                        sphere: sphere, cylinder: try value("cylinder", .diopter()), axis: try value("axis", .degreeAngle()),
                        addPower: try value("add", .diopter()), vertexDistance: try value("vertex", mm), prism: prism,
                        farPupillaryDistance: try value("farPD", mm), nearPupillaryDistance: try value("nearPD", mm),
                        baseCurve: try value("baseCurve", mm), diameter: try value("diameter", mm))
                }
                let right = try lens("RightEye"), left = try lens("LeftEye")
                let brand = type == .contacts ? a["brand"] ?? "" : nil
                let attachments = open.children.filter { $0.name == "Attachment" }.compactMap { $0.attributes["identifier"] }
                let extra = attachments.isEmpty ? nil : attachments.map { "<Attachment identifier=\"\(Self.attributeText($0))\"/>" }.joined(separator: "\n  ")
                let encoder = JSONEncoder()
                encoder.outputFormatting = .sortedKeys
                let key = "VisionPrescription|\(type.rawValue)|\(issued.timeIntervalSince1970)|\(expires?.timeIntervalSince1970 ?? -1)|\(brand ?? "")|"
                    + String(decoding: try encoder.encode([right, left]), as: UTF8.self) + "|" + attachments.joined(separator: ",")
                let made = try HKVisionPrescription.restored(
                    type: type, brand: brand, rightEye: right, leftEye: left, dateIssued: issued, expirationDate: expires,
                    uuid: ExportSources.stableUUID(key, start: issued), metadata: ExportMetadata.typed(open.metadata),
                    sourceRevision: records.revision("Health", nil, nil), device: nil)
                return (made, extra)
            } catch let error as HKError {
                report(line: open.line, element: "VisionPrescription", reason: error.message)
            } catch {
                report(line: open.line, element: "VisionPrescription", reason: "\(error)")
            }
            return nil
        }

        /// `value` as an attribute's text: the characters XML gives meaning to, and the whitespace a reader would fold,
        /// as references.
        static func attributeText(_ value: String) -> String {
            var text = ""
            for character in value.unicodeScalars {
                switch character {
                case "&": text += "&amp;"
                case "<": text += "&lt;"
                case ">": text += "&gt;"
                case "\"": text += "&quot;"
                case "\t", "\n", "\r": text += "&#\(character.value);"
                default: text.unicodeScalars.append(character)
                }
            }
            return text
        }

        /// A `<ScoredAssessment>` (OpenHealthKit's element; see ExportWriter) as the sample. Its score is made again from
        /// the answers.
        mutating func assessmentSample(_ open: OwnElement) -> HKScoredAssessment? {
            let a = open.attributes
            guard let type = a["type"].flatMap({ HKObjectType.type(forIdentifier: $0) }) as? HKScoredAssessmentType else {
                report(line: open.line, element: "ScoredAssessment", reason: "unknown scored assessment type \(a["type"] ?? "")")
                return nil
            }
            if hasImpossibleDate(a, line: open.line, element: "ScoredAssessment", "startDate", "endDate", "creationDate") { return nil }
            guard let sourceName = a["sourceName"], let start = a["startDate"].flatMap(ExportDates.parse),
                  let end = a["endDate"].flatMap(ExportDates.parse), end == start else {
                report(line: open.line, element: "ScoredAssessment", reason: "a ScoredAssessment without source or one valid date")
                return nil
            }
            var raw: [Int] = []
            for name in (a["answers"] ?? "").split(separator: " ") {
                guard let value = ExportNames.assessmentAnswer(name, type: type) else {
                    report(line: open.line, element: "ScoredAssessment", reason: "a ScoredAssessment with unknown answer \(name)")
                    return nil
                }
                raw.append(value)
            }
            let device = records.device(a["device"])
            let key = "ScoredAssessment|\(type.identifier)|\(raw.map(String.init).joined(separator: ","))|\(sourceName)|\(start.timeIntervalSince1970)"
            do {
                return try HKScoredAssessment.make(
                    type: type, date: start, answerRawValues: raw, uuid: ExportSources.stableUUID(key + creationKey(a), start: start),
                    metadata: ExportMetadata.typed(open.metadata), sourceRevision: records.revision(sourceName, a["sourceVersion"], device),
                    device: device)
            } catch let error as HKError {
                report(line: open.line, element: "ScoredAssessment", reason: error.message)
            } catch {
                report(line: open.line, element: "ScoredAssessment", reason: "\(error)")
            }
            return nil
        }

        // MARK: Identities

        /// What identifies an object beyond its content: `|created=<ms>` when the export gives its `creationDate` (two
        /// workouts alike in all else, an app's copies, are two HealthKit objects), else nothing.
        func creationKey(_ attributes: [String: String]) -> String {
            guard let created = attributes["creationDate"].flatMap(ExportDates.parse) else { return "" }
            let milliseconds = ExportRecordReader.milliseconds(created.timeIntervalSinceReferenceDate)
            // Created at its end: what an object without a creation date is taken as (records do the same).
            if let end = attributes["endDate"].flatMap(ExportDates.parse),
               ExportRecordReader.milliseconds(end.timeIntervalSinceReferenceDate) == milliseconds { return "" }
            return "|created=\(milliseconds)"
        }

        /// A workout's identity: activity type, source, instants, creation.
        func workoutKey(_ a: [String: String]) -> String {
            let start = a["startDate"].flatMap(ExportDates.parse)?.timeIntervalSince1970 ?? 0
            let end = a["endDate"].flatMap(ExportDates.parse)?.timeIntervalSince1970 ?? 0
            return "\(a["workoutActivityType"] ?? "")|\(a["sourceName"] ?? a["source"] ?? "")|\(start)|\(end)" + creationKey(a)
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
            if hasImpossibleDate(a, line: open.line, element: "WorkoutEvent", "date") { return nil }
            guard let type = a["type"].flatMap({ modelEnumRawValuesByName[$0] }).flatMap(HKWorkoutEventType.init(rawValue:)),
                  let date = a["date"].flatMap(ExportDates.parse) else {
                report(line: open.line, element: "WorkoutEvent", reason: "a WorkoutEvent of unknown type or without a date")
                return nil
            }
            let duration = seconds(a) ?? 0
            // DateInterval traps on a NaN or negative duration.
            guard duration.isFinite, duration >= 0 else {
                report(line: open.line, element: "WorkoutEvent", reason: "a WorkoutEvent whose duration is \(a["duration"] ?? "")")
                return nil
            }
            return HKWorkoutEvent(type: type, dateInterval: DateInterval(start: date, duration: duration),
                                  validatedMetadata: ExportMetadata.typed(open.metadata))
        }

        mutating func workoutStatistics(_ tag: XMLStartTagScanner.Tag) -> (HKQuantityType, HKStatistics)? {
            let a = tag.attributes
            if hasImpossibleDate(a, line: tag.line, element: "WorkoutStatistics", "startDate", "endDate") { return nil }
            guard let type = a["type"].flatMap({ HKObjectType.type(forIdentifier: $0) }) as? HKQuantityType,
                  let start = a["startDate"].flatMap(ExportDates.parse), let end = a["endDate"].flatMap(ExportDates.parse),
                  let unit = a["unit"].flatMap({ records.unit($0) }), unit.isCompatible(with: type.canonicalUnit) else {
                report(line: tag.line, element: "WorkoutStatistics", reason: "WorkoutStatistics of unknown type, unit or dates")
                return nil
            }
            for key in ["sum", "minimum", "maximum", "average"] {
                guard let text = a[key] else { continue }
                guard let value = Double(text), value.isFinite, ((try? unit.convert(value, to: type.canonicalUnit))?.isFinite ?? false) else {
                    report(line: tag.line, element: "WorkoutStatistics", reason: "WorkoutStatistics whose \(key) is \(text)")
                    return nil
                }
            }
            func quantity(_ key: String) -> HKQuantity? { a[key].flatMap(Double.init).map { HKQuantity(unit: unit, doubleValue: $0) } }
            return (type, HKStatistics(quantityType: type, startDate: start, endDate: end,
                                       merged: .init(sum: quantity("sum"), minimum: quantity("minimum"), maximum: quantity("maximum"),
                                                     average: quantity("average"))))
        }

        mutating func workoutActivity(_ open: OpenWorkout) -> HKWorkoutActivity? {
            let a = open.attributes
            if hasImpossibleDate(a, line: open.line, element: "WorkoutActivity", "startDate", "endDate") { return nil }
            guard let start = a["startDate"].flatMap(ExportDates.parse) else {
                report(line: open.line, element: "WorkoutActivity", reason: "a WorkoutActivity without a start date")
                return nil
            }
            if let end = a["endDate"].flatMap(ExportDates.parse), end < start {
                report(line: open.line, element: "WorkoutActivity", reason: "a WorkoutActivity that ends before it starts")
                return nil
            }
            let configuration = HKWorkoutConfiguration()
            configuration.activityType = workout?.attributes["workoutActivityType"].flatMap(HKWorkoutActivityType.init(exportName:)) ?? .other
            // Without Apple's UUID, one derived from the workout's identity: two copies of a workout have two activities.
            let uuid = a["uuid"].flatMap(UUID.init(uuidString:))
                ?? ExportSources.stableUUID("WorkoutActivity|\(workout.map { workoutKey($0.attributes) } ?? "")|\(start.timeIntervalSince1970)")
            return HKWorkoutActivity(uuid: uuid, configuration: configuration, start: start, end: a["endDate"].flatMap(ExportDates.parse),
                                     events: open.events, statistics: open.statistics, metadata: ExportMetadata.typed(open.metadata))
        }

        mutating func workoutSample(_ open: OpenWorkout) -> HKWorkout? {
            let a = open.attributes
            guard let typeName = a["workoutActivityType"], let activityType = HKWorkoutActivityType(exportName: typeName) else {
                report(line: open.line, element: "Workout", reason: "unknown workoutActivityType \(a["workoutActivityType"] ?? "")")
                return nil
            }
            if hasImpossibleDate(a, line: open.line, element: "Workout", "startDate", "endDate", "creationDate") { return nil }
            guard let sourceName = a["sourceName"] ?? a["source"], let start = a["startDate"].flatMap(ExportDates.parse),
                  let end = a["endDate"].flatMap(ExportDates.parse), end >= start else {
                report(line: open.line, element: "Workout", reason: "a Workout without source or valid dates")
                return nil
            }
            var statistics = open.statistics
            // Exports before iOS 16 give totals as attributes instead of WorkoutStatistics.
            func total(_ key: String, _ type: HKQuantityType) {
                guard statistics[type] == nil, let value = a[key].flatMap(Double.init), let unit = a[key + "Unit"].flatMap({ records.unit($0) }),
                      unit.isCompatible(with: type.canonicalUnit) else { return }
                statistics[type] = HKStatistics(quantityType: type, startDate: start, endDate: end,
                                                merged: .init(sum: HKQuantity(unit: unit, doubleValue: value)))
            }
            total("totalEnergyBurned", HKQuantityType(.activeEnergyBurned))
            total("totalDistance", HKWorkout.distanceType(for: activityType))
            let duration = seconds(a) ?? end.timeIntervalSince(start)
            // Checked here, with the line, rather than by SQLite's CHECK (which would stop the whole import).
            guard duration.isFinite, duration >= 0 else {
                report(line: open.line, element: "Workout", reason: "a Workout whose duration is \(a["duration"] ?? "")")
                return nil
            }
            let device = records.device(a["device"])
            let uuid = ExportSources.stableUUID("Workout|" + workoutKey(a), start: start)
            if records.legacyIdentities {
                batch.legacy[uuid] = ExportSources.stableUUID("Workout|\(typeName)|\(sourceName)|\(start.timeIntervalSince1970)|\(end.timeIntervalSince1970)",
                                                              start: start)
            }
            return HKWorkout(activityType: activityType, start: start, end: end, duration: duration,
                             events: open.events.isEmpty ? nil : open.events.sorted { $0.dateInterval.start < $1.dateInterval.start },
                             activities: open.activities, statistics: statistics, uuid: uuid, metadata: ExportMetadata.typed(open.metadata),
                             sourceRevision: records.revision(sourceName, a["sourceVersion"], device), device: device)
        }

        // MARK: Routes

        /// An inline `<Location date latitude longitude altitude horizontalAccuracy verticalAccuracy course speed/>`.
        mutating func location(_ tag: XMLStartTagScanner.Tag) -> CLLocation? {
            let a = tag.attributes
            if hasImpossibleDate(a, line: tag.line, element: "Location", "date") { return nil }
            guard let date = a["date"].flatMap(ExportDates.parse), let latitude = a["latitude"].flatMap(Double.init),
                  let longitude = a["longitude"].flatMap(Double.init) else {
                report(line: tag.line, element: "Location", reason: "a Location without date, latitude or longitude")
                return nil
            }
            guard (-90...90).contains(latitude), (-180...180).contains(longitude) else {
                report(line: tag.line, element: "Location", reason: "a Location at latitude \(latitude), longitude \(longitude)")
                return nil
            }
            // What the store refuses (NaN is stored as NULL, which a route's columns do not take): a measure that is not
            // a finite number.
            if let key = ["altitude", "horizontalAccuracy", "verticalAccuracy", "course", "speed"].first(where: { key in
                a[key].map { Double($0)?.isFinite != true } ?? false
            }) {
                report(line: tag.line, element: "Location", reason: "a Location whose \(key) is not a finite number (\(a[key]!.prefix(40)))")
                return nil
            }
            func number(_ key: String, _ missing: Double) -> Double { a[key].flatMap(Double.init) ?? missing }
            return CLLocation(coordinate: CLLocationCoordinate2D(latitude: latitude, longitude: longitude), altitude: number("altitude", 0),
                              horizontalAccuracy: number("horizontalAccuracy", 0), verticalAccuracy: number("verticalAccuracy", -1),
                              course: number("course", -1), speed: number("speed", -1), timestamp: date)
        }

        /// A route's points: inline, then from its GPX files in order. Nil (and reported) when it has none.
        mutating func routeLocations(_ open: OpenRoute) -> [CLLocation]? {
            var locations = open.locations
            for path in open.files {
                do {
                    guard let data = try export.file(path) else {
                        report(line: open.line, element: "WorkoutRoute", reason: "the route file \(path) is not in the export")
                        continue
                    }
                    locations += try GPXReader.locations(in: data, name: String(path.split(separator: "/").last ?? ""))
                } catch let error as HKError {
                    report(line: open.line, element: "WorkoutRoute", reason: error.message)
                } catch {
                    report(line: open.line, element: "WorkoutRoute", reason: "cannot read the route file \(path)")
                }
            }
            guard !locations.isEmpty else {
                report(line: open.line, element: "WorkoutRoute", reason: "a WorkoutRoute without readable locations")
                return nil
            }
            return locations
        }

        /// A route of a stored workout, in its own source (the watch or phone that recorded it).
        mutating func workoutRoute(_ open: OpenRoute, locations: [CLLocation], of workout: HKWorkout) -> SampleStore.ImportedRoute? {
            let a = open.attributes
            if hasImpossibleDate(a, line: open.line, element: "WorkoutRoute", "startDate", "endDate", "creationDate") { return nil }
            let start = a["startDate"].flatMap(ExportDates.parse) ?? locations[0].timestamp
            let end = a["endDate"].flatMap(ExportDates.parse) ?? locations[locations.count - 1].timestamp
            guard end >= start else {
                report(line: open.line, element: "WorkoutRoute", reason: "a WorkoutRoute that ends before it starts")
                return nil
            }
            let device = records.device(a["device"])
            let revision = a["sourceName"].map { records.revision($0, a["sourceVersion"], device) } ?? workout.sourceRevision
            let key = "|\(start.timeIntervalSince1970)|\(end.timeIntervalSince1970)"
            let uuid = ExportSources.stableUUID("WorkoutRoute|\(workout.uuid)" + key + creationKey(a), start: start)
            if let legacyWorkout = batch.legacy[workout.uuid] {
                batch.legacy[uuid] = ExportSources.stableUUID("WorkoutRoute|\(legacyWorkout)" + key, start: start)
            }
            let route = HKWorkoutRoute(count: locations.count, start: start, end: end, uuid: uuid, metadata: ExportMetadata.typed(open.metadata),
                                       sourceRevision: revision, device: device ?? (a["sourceName"] == nil ? workout.device : nil))
            return SampleStore.ImportedRoute(route: route, locations: locations, workout: workout.uuid)
        }

        // MARK: Activity summaries

        mutating func activitySummary(_ tag: XMLStartTagScanner.Tag) {
            let a = tag.attributes
            guard let dayText = a["dateComponents"], let day = ActivityDay(text: dayText) else {
                return report(line: tag.line, element: "ActivitySummary", reason: "an ActivitySummary without a yyyy-MM-dd dateComponents")
            }
            // A value that is not a number would be silently dropped: the summary is left out and reported instead.
            let numbers = ["activeEnergyBurned", "activeEnergyBurnedGoal", "appleMoveTime", "appleMoveTimeGoal", "appleExerciseTime",
                           "appleExerciseTimeGoal", "appleStandHours", "appleStandHoursGoal"]
            if let key = numbers.first(where: { key in a[key].map { Double($0) == nil } ?? false }) {
                return report(line: tag.line, element: "ActivitySummary",
                              reason: "an ActivitySummary whose \(key) is not a number (\(a[key] ?? ""))")
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
            // Checked here, with the line, rather than by the store (which would refuse every summary of the export).
            do {
                try summary.validate()
            } catch let error as HKError {
                return report(line: tag.line, element: "ActivitySummary", reason: error.message)
            } catch {
                return report(line: tag.line, element: "ActivitySummary", reason: "\(error)")
            }
            summaries.append(summary)
        }
    }
}
