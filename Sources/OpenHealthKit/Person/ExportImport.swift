public import Foundation
import HealthExport
import HealthStore

/// What an import of an Apple Health export did.
public struct ExportImport: Sendable {
    /// Newly stored samples by type identifier.
    public var added: [String: Int] = [:]
    /// Samples already in the store (from an earlier import of the same or an overlapping export).
    public var alreadyStored = 0
    /// Samples the export holds more than once, alike down to their creation date (the same object written twice):
    /// stored once. (Copies an app saved apart — another creation date — are distinct objects, each stored.)
    public var exactCopies = 0
    /// Samples read, by type identifier.
    public var read: [String: Int] = [:]
    public var activitySummaries = 0
    /// Elements the model does not hold, kept as written and written back by a later export, by element name
    /// (`Record` for record types the catalog does not know); each also reported.
    public var kept: [String: Int] = [:]
    /// Sidecar files kept as they are (`electrocardiograms/*.csv`), new or changed ones.
    public var keptFiles: [String] = []
    /// Characteristics set from `<Me>`.
    public var characteristics = 0
    /// Health records (`clinical-records/`), when the export has them.
    public var clinicalRecords: ClinicalRecordImport?
    /// What was left out, with the export.xml line (the first 1,000) …
    public var problems: [Problem] = []
    /// … and how many of each reason.
    public var problemCounts: [String: Int] = [:]
    public var bytes = 0
    /// The time zone the export's latest samples were recorded in (`HKTimeZone`), learned as the person's unless they
    /// chose one.
    public var timeZone: TimeZone?

    public var addedTotal: Int { added.values.reduce(0, +) }

    public struct Problem: Sendable, Hashable, CustomStringConvertible {
        public let line: Int
        public let element: String
        public let reason: String
        public var description: String { "line \(line) (\(element)): \(reason)" }
    }
}

extension HealthPerson {
    /// Imports an Apple Health export — `export.zip`, its unpacked folder, or `export.xml` — streaming, in batches of
    /// one transaction each. Samples keep their original sources (Apple Watch, iPhone, apps by name) and devices;
    /// importing the same export again, or a newer one that overlaps it, adds nothing twice; an interrupted import
    /// can be run again. `progress` hears, after each megabyte of export.xml, the bytes read, the file's size and the
    /// samples read so far.
    public func importExport(at url: URL, progress: (@Sendable (_ bytes: Int, _ total: Int, _ samples: Int) -> Void)? = nil) throws -> ExportImport {
        let location = try ExportLocation(url)
        try convertKeptElements()
        return try importExport(location, progress: progress)
    }

    /// Elements an earlier version kept as written that the model now holds — audiograms (before v36) and vision
    /// prescriptions (before v37) — read again, one by one, as the samples they are, and no longer kept: otherwise an
    /// import of the same export, whose elements now come in as samples, would leave each twice in the next export. One
    /// that still cannot be read stays kept, and goes back out as written.
    func convertKeptElements() throws {
        let kept = try sampleStore.exportElements(named: ["Audiogram", "VisionPrescription"])
        guard !kept.isEmpty else { return }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ohk-kept-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("export.xml")
        for (id, element) in kept {
            try Data("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData>\n \(element.xml)\n</HealthData>\n".utf8).write(to: file)
            let read = try importExport(try ExportLocation(file), progress: nil)
            if read.addedTotal + read.alreadyStored == 1, read.problems.isEmpty { try sampleStore.forgetExportElement(id) }
        }
    }

    private func importExport(_ location: ExportLocation, progress: (@Sendable (_ bytes: Int, _ total: Int, _ samples: Int) -> Void)?) throws
        -> ExportImport
    {
        let total = location.xmlSize
        var result = ExportImport()
        // Batches are stored on a second thread while the next ones are read; the writer alone touches `stored`
        // until `finish` has waited for it.
        let store = sampleStore, session = try store.beginImport(), stored = StoredCounts()
        // Reading and storing run side by side, so the slower side sets the pace. Long records (an export since iOS 9,
        // ≈ 400 bytes with their device) take longer to read than to store with every index kept up to date as rows
        // arrive (in time order, so index entries are appended). Short records (2015 exports, ≈ 190 bytes) are the
        // other way round: into an empty store their indexes are built once at the end instead (after the writer has
        // stopped: this `defer` runs last). Measured in BENCHMARKS.md.
        let shortRecords = (ExportImportReader.averageRecordLength(of: location) ?? 0) < Self.longRecordBytes
        let bulk = shortRecords ? try store.beginBulkLoad() : false
        defer { if bulk { try? store.endBulkLoad() } }
        let pipeline = ImportPipeline<ExportImportReader.Batch> { batch in
            let counts = try store.importBatch(rows: batch.rows, objects: batch.objects, routes: batch.routes,
                                               elements: batch.elements, created: batch.created, legacy: batch.legacy,
                                               extras: batch.extras, session: session)
            for (type, count) in counts.added { stored.added[type, default: 0] += count }
            stored.existing += counts.existing
            stored.copies += counts.copies
        }
        defer { pipeline.close() }
        var meProblems: [ExportImport.Problem] = []
        var medicationsAdded = 0
        var sink = ExportImportReader.Sink(batch: { batch in
            try pipeline.submit(batch)
        }, me: { attributes, line in
            result.characteristics = try self.setCharacteristics(fromExport: attributes, line: line, problems: &meProblems)
        }, activitySummaries: { summaries in
            var byDay: [String: HKActivitySummary] = [:]
            for summary in summaries { if let day = summary.day { byDay[day.text] = summary } }
            try self.saveActivitySummaries(Array(byDay.values))
            result.activitySummaries = byDay.count
        }, progress: { bytes, samples in progress?(bytes, total, samples) })
        sink.medications = { medications in
            // A medication tracked already (the same concept) stays as the person has it now.
            for medication in medications where try self.sampleStore.medication(medication.medication.identifier.underlyingIdentifier) == nil {
                try self.sampleStore.addMedication(medication)
                medicationsAdded += 1
            }
        }
        let summary: ExportImportReader.Summary
        do {
            summary = try ExportImportReader(legacyIdentities: session.legacyIdentities).read(location, into: sink)
            try pipeline.finish()
        } catch let error as HKError where error.code == .errorInvalidArgument {
            // The export could not be read to its end (damaged, or past a limit). What was stored before stays — each
            // batch is whole, and an import run again adds nothing twice — but the error says how much, so that a
            // stopped import never passes for a complete one.
            pipeline.close()
            let count = stored.added.values.reduce(0, +) + stored.existing
            throw HKError.invalidArgument(error.message + (count == 0
                ? "; nothing of the export was stored"
                : "; the import stopped there: \(count) sample\(count == 1 ? "" : "s") before it \(count == 1 ? "is" : "are") in the store, "
                  + "the rest of the export is not"))
        }
        if bulk { try store.endBulkLoad() }
        result.added = stored.added
        if medicationsAdded > 0 { result.added[HKDataTypeIdentifierUserAnnotatedMedicationConcept] = medicationsAdded }
        result.alreadyStored = stored.existing
        result.exactCopies = stored.copies + summary.exactCopies
        result.read = summary.read
        // Apple's export writes values in the person's preferred units: learned, unless the person chose otherwise.
        let units = PreferredUnitStore(database: database)
        for (type, latest) in summary.units {
            guard let type = HKObjectType.type(forIdentifier: type) as? HKQuantityType, let unit = try? HKUnit.parse(latest.unit) else { continue }
            try units.set(unit, for: type, byPerson: false)
        }
        // Days are counted where the person lives: the time zone of their latest sample that says, unless they chose one.
        if let zone = summary.timeZone.flatMap({ TimeZone(identifier: $0.identifier) }) {
            try PersonTimeZoneStore(database: database).set(zone, byPerson: false)
            result.timeZone = zone
        }
        result.kept = summary.kept
        result.problems = summary.problems.map { ExportImport.Problem(line: $0.line, element: $0.element, reason: $0.reason) }
        result.problemCounts = summary.problemCounts
        for problem in meProblems {
            result.problems.append(problem)
            result.problemCounts[problem.reason, default: 0] += 1
        }
        result.keptFiles = try keepSidecarFiles(of: location, into: &result)
        result.bytes = total
        if !summary.clinicalRecords.isEmpty {
            result.clinicalRecords = try importClinicalRecords(ClinicalImportReader(provider: nil, version: nil)
                .read(rows: summary.clinicalRecords, of: location))
        }
        return result
    }

    /// The average length, in bytes of export.xml, from which records are read more slowly than they are stored.
    static let longRecordBytes = 280

    /// Reads the export's electrocardiograms (`electrocardiograms/*.csv`, which export.xml does not mention) into
    /// `HKElectrocardiogram` samples, and keeps each file as it is, so a later export writes it back byte for byte.
    /// Returns the paths of the files new or changed; counts the samples added in `result`, and a file it cannot read
    /// as a problem (the file is still kept).
    func keepSidecarFiles(of export: ExportLocation, into result: inout ExportImport) throws -> [String] {
        var kept: [String] = []
        for path in export.files(in: "electrocardiograms") where path.lowercased().hasSuffix(".csv") {
            guard let data = try export.file(path) else { continue }
            if try sampleStore.keepExportFile(path: path, data: data) { kept.append(path) }
            do {
                let ecg = try ElectrocardiogramCSV.electrocardiogram(data, path: path)
                if try sampleStore.contains(ecg.uuid) {
                    result.alreadyStored += 1
                } else {
                    try sampleStore.importSamples([ecg])
                    result.added[ecg.sampleType.identifier, default: 0] += 1
                }
                result.read[ecg.sampleType.identifier, default: 0] += 1
            } catch let error as HKError {
                let problem = ExportImport.Problem(line: 0, element: path, reason: error.message)
                result.problems.append(problem)
                result.problemCounts[problem.reason, default: 0] += 1
            }
        }
        return kept
    }

    /// Sets the characteristics an export's `<Me>` gives (`HKBiologicalSexFemale`, or the raw numbers of 2015 exports;
    /// a date of birth `yyyy-MM-dd`); returns how many were set.
    func setCharacteristics(fromExport attributes: [String: String], line: Int, problems: inout [ExportImport.Problem]) throws -> Int {
        func raw(_ key: String) -> Int? {
            guard let text = attributes[key], !text.isEmpty else { return nil }
            return modelEnumRawValuesByName[text] ?? Int(text)
        }
        var set = 0
        if let value = raw("HKCharacteristicTypeIdentifierBiologicalSex").flatMap(HKBiologicalSex.init(rawValue:)), value != .notSet {
            try setBiologicalSex(value); set += 1
        }
        if let value = raw("HKCharacteristicTypeIdentifierBloodType").flatMap(HKBloodType.init(rawValue:)), value != .notSet {
            try setBloodType(value); set += 1
        }
        if let value = raw("HKCharacteristicTypeIdentifierFitzpatrickSkinType").flatMap(HKFitzpatrickSkinType.init(rawValue:)), value != .notSet {
            try setFitzpatrickSkinType(value); set += 1
        }
        if let text = attributes["HKCharacteristicTypeIdentifierDateOfBirth"], !text.isEmpty {
            let parts = text.prefix(10).split(separator: "-").compactMap { Int($0) }
            do {
                guard parts.count == 3 else { throw HKError.invalidArgument("the date of birth \(text) is not a year, month and day") }
                try setDateOfBirth(DateComponents(year: parts[0], month: parts[1], day: parts[2]))
                set += 1
            } catch let error as HKError where error.code == .errorInvalidArgument {
                // One impossible date (30 February) leaves the date of birth unset; it does not stop the import.
                problems.append(ExportImport.Problem(line: line, element: "Me", reason: "\(error.message) (date of birth \(text) not set)"))
            }
        }
        // Whether the person takes medications that affect cardio fitness (iOS 16): no API gives it to apps; it is kept
        // as the export writes it (`None`, or the medications) and written back.
        let medications = HKCharacteristicTypeIdentifier.cardioFitnessMedicationsUse
        if let text = attributes[medications.rawValue], !text.isEmpty, text != "HKCardioFitnessMedicationsUseNotSet" {
            try characteristics.set(medications, to: text); set += 1
        }
        return set
    }
}

extension HKCharacteristicTypeIdentifier {
    /// `<Me>`'s `HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse` (Export Version 12 on): kept for the export
    /// only, as apps have no API for it.
    static let cardioFitnessMedicationsUse = HKCharacteristicTypeIdentifier(rawValue: "HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse")
}

/// What the import's writing thread has stored so far.
private final class StoredCounts: @unchecked Sendable {
    var added: [String: Int] = [:]
    var existing = 0
    var copies = 0
}
