package import Foundation
package import HealthModel
package import HealthStore

/// Writes an Apple Health export — `export.xml` and `clinical-records/` in a folder — in the form Apple's Health app
/// writes (Export Version 14): the DTD in the DOCTYPE, `<HealthData locale>`, `ExportDate`, `Me`, then Records and
/// Correlations, Workouts, ActivitySummaries and ClinicalRecords. Attributes come in Apple's order, one space of
/// indentation per level, values escaped; dates are `yyyy-MM-dd HH:mm:ss ±hhmm` in the sample's `HKTimeZone` when it
/// has one, else in the writer's zone. Elements are written as they come through a buffered file handle, so the
/// memory an export takes does not grow with the store.
///
/// Call ``writeMe(_:)`` first, then the ``write(samples:)``, ``write(workouts:)``, ``write(activitySummaries:)`` and
/// ``write(clinicalResources:)`` batches in that order, then ``finish()``.
package final class ExportWriter {
    /// What was written.
    package struct Summary: Sendable {
        /// Top-level Records and Correlations by type identifier (correlation members count once, as their top-level
        /// Record), and Workouts under `HKWorkoutTypeIdentifier`.
        package var written: [String: Int] = [:]
        package var activitySummaries = 0
        package var clinicalRecords = 0
        /// Workout routes, each in its GPX file under `workout-routes/`.
        package var routes = 0
        /// Elements kept as written at import (unknown record types, audiograms…) and sidecar files (ECGs) written back.
        package var keptElements = 0
        package var files = 0
        /// Bytes of export.xml.
        package var bytes = 0
    }

    /// The folder written (`apple_health_export/`).
    package let folder: URL
    private var output: ExportXMLOutput
    private var dates: ExportDateWriter
    private var summary = Summary()
    private var wroteMe = false
    private var clinicalFolderMade = false
    private let timeZone: TimeZone
    private let exportDate: Date
    /// Route file names used so far (`route_2019-06-11_3.00pm.gpx`, then `…_2.gpx` on a clash).
    private var routeFiles: Set<String> = []

    /// Starts `folder/export.xml` (creating the folder), with the header and `ExportDate`.
    package init(folder: URL, locale: String = "en_US", timeZone: TimeZone = .current, exportDate: Date = Date()) throws {
        do { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) } catch {
            throw HKError.invalidArgument("cannot create the export folder \(folder.path): \(error.localizedDescription)")
        }
        self.folder = folder
        self.timeZone = timeZone
        self.exportDate = exportDate
        output = try ExportXMLOutput(url: folder.appendingPathComponent("export.xml"))
        dates = ExportDateWriter(defaultZone: timeZone)
        output.raw(ExportDTD.header)
        output.raw("\n<HealthData")
        output.attribute("locale", locale)
        output.raw(">\n <ExportDate")
        output.attribute("value", dates.text(exportDate))
        output.raw("/>\n")
    }

    // MARK: - Me

    /// `<Me>` from the characteristics the store keeps (raw values, `yyyy-MM-dd`); unset ones are written as Apple
    /// writes them (`HKBiologicalSexNotSet`, an empty date of birth).
    package func writeMe(_ characteristics: [HKCharacteristicTypeIdentifier: String]) throws {
        guard !wroteMe else { return }
        wroteMe = true
        func name(_ type: HKCharacteristicTypeIdentifier, _ names: [Int: String], notSet: String) -> String {
            characteristics[type].flatMap(Int.init).flatMap { names[$0] } ?? notSet
        }
        output.raw(" <Me")
        output.attribute("HKCharacteristicTypeIdentifierDateOfBirth", characteristics[.dateOfBirth] ?? "")
        output.attribute("HKCharacteristicTypeIdentifierBiologicalSex", name(.biologicalSex, ExportNames.biologicalSexNames, notSet: "HKBiologicalSexNotSet"))
        output.attribute("HKCharacteristicTypeIdentifierBloodType", name(.bloodType, ExportNames.bloodTypeNames, notSet: "HKBloodTypeNotSet"))
        output.attribute("HKCharacteristicTypeIdentifierFitzpatrickSkinType",
                         name(.fitzpatrickSkinType, ExportNames.skinTypeNames, notSet: "HKFitzpatrickSkinTypeNotSet"))
        // Kept as the imported export wrote it; the attribute is required, so "not set" when there was none.
        output.attribute("HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse",
                         characteristics[HKCharacteristicTypeIdentifier(rawValue: "HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse")]
                            ?? "HKCardioFitnessMedicationsUseNotSet")
        output.raw("/>\n")
        try output.flushIfNeeded()
    }

    // MARK: - Records and correlations

    /// Quantity and category samples as `<Record>`s, correlations as `<Correlation>`s holding their members'
    /// Records (which the store also hands over on their own, as Apple writes them twice).
    package func write(samples: [ExportSample]) throws {
        try writeMe([:])
        for sample in samples {
            switch sample.value {
            case .correlation(let members):
                writeCorrelation(sample, members: members)
            case .quantity, .category:
                writeRecord(sample, indent: 1)
            case .stateOfMind(let state):
                writeStateOfMind(sample, state)
            case .scoredAssessment(let assessment):
                writeAssessment(sample, assessment)
            case .audiogram(let audiogram):
                writeAudiogram(sample, audiogram)
            case .visionPrescription(let prescription):
                writePrescription(sample, prescription)
            case .medicationDoseEvent(let dose):
                writeDoseEvent(sample, dose)
            case .workout:
                try writeWorkout(sample)
                continue
            }
            summary.written[sample.type, default: 0] += 1
            try output.flushIfNeeded()
        }
    }

    private func zone(of sample: ExportSample) -> TimeZone? {
        guard case .string(let name)? = sample.metadataValue(HKMetadataKeyTimeZone) else { return nil }
        return dates.zone(named: name)
    }

    private func indent(_ level: Int) {
        for _ in 0..<level { output.byte(UInt8(ascii: " ")) }
    }

    /// `sourceName`, `sourceVersion` and `device`, as every sample element starts.
    private func writeSource(_ sample: ExportSample) {
        output.attribute("sourceName", sample.source.name)
        if let version = sample.sourceVersion { output.attribute("sourceVersion", version) }
        if let (id, device) = sample.device { output.attribute("device", ExportNames.device(device, id: id)) }
    }

    private func dateAttribute(_ name: String, _ date: Date, zone: TimeZone?) {
        output.byte(UInt8(ascii: " "))
        output.raw(name)
        output.raw("=\"")
        dates.append(date, zone: zone, to: &output)
        output.byte(UInt8(ascii: "\""))
    }

    /// `creationDate`, `startDate` and `endDate`.
    private func writeDates(_ sample: ExportSample, zone: TimeZone?) {
        dateAttribute("creationDate", sample.creationDate, zone: zone)
        dateAttribute("startDate", sample.startDate, zone: zone)
        dateAttribute("endDate", sample.endDate, zone: zone)
    }

    private func writeMetadata(_ entries: [(key: String, value: HKMetadataValue)], indent level: Int, zone: TimeZone?) {
        for (key, value) in entries {
            indent(level)
            output.raw("<MetadataEntry")
            output.attribute("key", key)
            output.attribute("value", ExportNames.metadataValue(value, dates: &dates, zone: zone))
            output.raw("/>\n")
        }
    }

    private func sortedMetadata(_ metadata: [String: HKMetadataValue]?) -> [(key: String, value: HKMetadataValue)] {
        (metadata ?? [:]).sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    private func writeRecord(_ sample: ExportSample, indent level: Int) {
        let zone = zone(of: sample)
        indent(level)
        output.raw("<Record")
        output.attribute("type", sample.type)
        writeSource(sample)
        if case .quantity(_, let unit) = sample.value { output.attribute("unit", unit) }
        writeDates(sample, zone: zone)
        switch sample.value {
        case .quantity(let value, _): output.attribute("value", ExportNames.number(value))
        case .category(let value): output.attribute("value", ExportNames.categoryValue(value, type: sample.type))
        default: break
        }
        closeElement("Record", indent: level, hasChildren: !sample.metadata.isEmpty || sample.extra != nil) {
            writeMetadata(sample.metadata, indent: level + 1, zone: zone)
            if let extra = sample.extra {
                indent(level + 1)
                output.raw(extra)
                output.raw("\n")
            }
        }
    }

    /// A `<StateOfMind>`: an element of OpenHealthKit's, as Apple's export (version 14) leaves states of mind out. Beside
    /// the Records, with a Record's `sourceName`, `sourceVersion`, `device` and dates (start and end equal) and
    /// `MetadataEntry` children; `kind`, `valence` (−1…1), and `labels` and `associations` space-separated, each by its
    /// ObjC name in the order the sample holds them:
    ///
    ///     <StateOfMind sourceName="Mood" creationDate="…" startDate="…" endDate="…" kind="HKStateOfMindKindDailyMood"
    ///      valence="0.6" labels="HKStateOfMindLabelHappy HKStateOfMindLabelGrateful" associations="HKStateOfMindAssociationFamily"/>
    ///
    /// Apple's DTD, which the file opens with verbatim, does not declare it (readers of exports skip what they do not know).
    private func writeStateOfMind(_ sample: ExportSample, _ state: HKStateOfMind) {
        let zone = zone(of: sample)
        output.raw(" <StateOfMind")
        writeSource(sample)
        writeDates(sample, zone: zone)
        output.attribute("kind", ExportNames.stateOfMindName(state.kind))
        output.attribute("valence", ExportNames.number(state.valence))
        output.attribute("labels", state.labels.map(ExportNames.stateOfMindName).joined(separator: " "))
        output.attribute("associations", state.associations.map(ExportNames.stateOfMindName).joined(separator: " "))
        closeElement("StateOfMind", indent: 1, hasChildren: !sample.metadata.isEmpty) {
            writeMetadata(sample.metadata, indent: 2, zone: zone)
        }
    }

    /// The medications the person tracks, as `<Medication>` elements of OpenHealthKit's (Apple's export, version 14, has
    /// none), before the Records: each with its concept's identifier, name and form, what the person set for it, and a
    /// `<Coding>` per clinical code:
    ///
    ///     <Medication identifier="310965" displayText="Ibuprofen 200 MG Oral Tablet" generalForm="HKMedicationGeneralFormTablet"
    ///      nickname="Headache pills" isArchived="0" hasSchedule="0">
    ///      <Coding system="http://www.nlm.nih.gov/research/umls/rxnorm" code="310965"/>
    ///     </Medication>
    package func write(medications: [HKUserAnnotatedMedication]) throws {
        try writeMe([:])
        for medication in medications {
            let concept = medication.medication
            output.raw(" <Medication")
            output.attribute("identifier", concept.identifier.underlyingIdentifier)
            output.attribute("displayText", concept.displayText)
            output.attribute("generalForm", concept.generalForm.rawValue)
            if let nickname = medication.nickname { output.attribute("nickname", nickname) }
            output.attribute("isArchived", medication.isArchived ? "1" : "0")
            output.attribute("hasSchedule", medication.hasSchedule ? "1" : "0")
            let codings = concept.relatedCodings.map(\.stored).sorted { ($0.system, $0.code, $0.version ?? "") < ($1.system, $1.code, $1.version ?? "") }
            closeElement("Medication", indent: 1, hasChildren: !codings.isEmpty) {
                for coding in codings {
                    indent(2)
                    output.raw("<Coding")
                    output.attribute("system", coding.system)
                    if let version = coding.version { output.attribute("version", version) }
                    output.attribute("code", coding.code)
                    output.raw("/>\n")
                }
            }
            summary.written[HKDataTypeIdentifierUserAnnotatedMedicationConcept, default: 0] += 1
        }
        try output.flushIfNeeded()
    }

    /// A `<MedicationDoseEvent>` of OpenHealthKit's beside the Records, with a Record's source, device, dates and metadata;
    /// its medication's identifier, schedule type and log status by their ObjC names, the scheduled date and doses, and
    /// the unit:
    ///
    ///     <MedicationDoseEvent sourceName="Health" creationDate="…" startDate="…" endDate="…" medication="861007"
    ///      scheduleType="HKMedicationDoseEventScheduleTypeSchedule" scheduledDate="…" scheduledDoseQuantity="1"
    ///      doseQuantity="1" logStatus="HKMedicationDoseEventLogStatusTaken" unit="count"/>
    private func writeDoseEvent(_ sample: ExportSample, _ dose: HKMedicationDoseEvent) {
        let zone = zone(of: sample)
        output.raw(" <MedicationDoseEvent")
        writeSource(sample)
        writeDates(sample, zone: zone)
        output.attribute("medication", dose.medicationConceptIdentifier.underlyingIdentifier)
        output.attribute("scheduleType", ExportNames.doseName(dose.scheduleType))
        if let scheduled = dose.scheduledDate { dateAttribute("scheduledDate", scheduled, zone: zone) }
        if let quantity = dose.scheduledDoseQuantity { output.attribute("scheduledDoseQuantity", ExportNames.number(quantity)) }
        if let quantity = dose.doseQuantity { output.attribute("doseQuantity", ExportNames.number(quantity)) }
        output.attribute("logStatus", ExportNames.doseName(dose.logStatus))
        output.attribute("unit", dose.unit.unitString)
        closeElement("MedicationDoseEvent", indent: 1, hasChildren: !sample.metadata.isEmpty) {
            writeMetadata(sample.metadata, indent: 2, zone: zone)
        }
    }

    /// An `<Audiogram>` as Apple writes it: its metadata, then a `<SensitivityPoint>` per frequency with each ear's
    /// sensitivity in dBHL, `…Masked="1"` for a masked test and its clamping bounds. The element holds one test per ear:
    /// of a point with a masked and an unmasked test of one ear, the unmasked one is written.
    private func writeAudiogram(_ sample: ExportSample, _ audiogram: HKAudiogramSample) {
        let zone = zone(of: sample)
        output.raw(" <Audiogram")
        output.attribute("type", sample.type)
        writeSource(sample)
        writeDates(sample, zone: zone)
        closeElement("Audiogram", indent: 1, hasChildren: !sample.metadata.isEmpty || !audiogram.sensitivityPoints.isEmpty) {
            writeMetadata(sample.metadata, indent: 2, zone: zone)
            let dBHL = HKUnit.decibelHearingLevel()
            for point in audiogram.sensitivityPoints {
                indent(2)
                output.raw("<SensitivityPoint")
                output.attribute("frequencyValue", ExportNames.number(point.frequency.doubleValue(for: .hertz())))
                output.attribute("frequencyUnit", "Hz")
                for (side, name) in [(HKAudiogramSensitivityTestSide.left, "leftEar"), (.right, "rightEar")] {
                    guard let test = point.tests.first(where: { $0.side == side && !$0.masked }) ?? point.tests.first(where: { $0.side == side })
                    else { continue }
                    output.attribute(name + "Value", ExportNames.number(test.sensitivity.doubleValue(for: dBHL)))
                    output.attribute(name + "Unit", "dBHL")
                    if test.masked { output.attribute(name + "Masked", "1") }
                    if let lower = test.clampingRange?.lowerBound {
                        output.attribute(name + "ClampingRangeLowerBound", ExportNames.number(lower.doubleValue(for: dBHL)))
                    }
                    if let upper = test.clampingRange?.upperBound {
                        output.attribute(name + "ClampingRangeUpperBound", ExportNames.number(upper.doubleValue(for: dBHL)))
                    }
                }
                output.raw("/>\n")
            }
        }
    }

    /// A `<VisionPrescription>` as Apple's DTD (v12 on) declares it: `type` (`HKVisionPrescriptionTypeGlasses` or
    /// `…Contacts`), `dateIssued`, `expirationDate` and `brand` (contacts); a `<RightEye>` and `<LeftEye>` with each value
    /// and its unit (`D`, `deg`, `mm`, `pD`); the `<Attachment>`s it came with; its metadata. Apple writes no source.
    private func writePrescription(_ sample: ExportSample, _ prescription: HKVisionPrescription) {
        let zone = zone(of: sample)
        output.raw(" <VisionPrescription")
        output.attribute("type", prescription.prescriptionType == .contacts ? "HKVisionPrescriptionTypeContacts" : "HKVisionPrescriptionTypeGlasses")
        dateAttribute("dateIssued", prescription.dateIssued, zone: zone)
        if let expiration = prescription.expirationDate { dateAttribute("expirationDate", expiration, zone: zone) }
        if let brand = prescription.lensBrand { output.attribute("brand", brand) }
        let lenses = [("RightEye", prescription.lenses.right), ("LeftEye", prescription.lenses.left)].compactMap { name, lens in lens.map { (name, $0.stored) } }
        closeElement("VisionPrescription", indent: 1, hasChildren: !lenses.isEmpty || sample.extra != nil || !sample.metadata.isEmpty) {
            for (name, lens) in lenses {
                indent(2)
                output.raw("<\(name)")
                let values: [(String, Double?, String)] = [
                    ("sphere", lens.sphere, "D"), ("cylinder", lens.cylinder, "D"), ("axis", lens.axis, "deg"), ("add", lens.addPower, "D"),
                    ("vertex", lens.vertexDistance, "mm"), ("prismAmount", lens.prism?.amount, "pD"), ("prismAngle", lens.prism?.angle, "deg"),
                    ("farPD", lens.farPupillaryDistance, "mm"), ("nearPD", lens.nearPupillaryDistance, "mm"), ("baseCurve", lens.baseCurve, "mm"),
                    ("diameter", lens.diameter, "mm"),
                ]
                for (attribute, value, unit) in values {
                    guard let value else { continue }
                    output.attribute(attribute, ExportNames.number(value))
                    output.attribute(attribute + "Unit", unit)
                }
                output.raw("/>\n")
            }
            if let extra = sample.extra {
                indent(2)
                output.raw(extra)
                output.raw("\n")
            }
            writeMetadata(sample.metadata, indent: 2, zone: zone)
        }
    }

    /// A `<ScoredAssessment>`: OpenHealthKit's element for a GAD-7 or PHQ-9 result (Apple's export leaves them out), as
    /// `<StateOfMind>` is, with its `type`, its `score` (for a reader's convenience; an import makes it again from the
    /// answers) and its `answers` by their ObjC names, space-separated, in question order.
    private func writeAssessment(_ sample: ExportSample, _ assessment: HKScoredAssessment) {
        let zone = zone(of: sample)
        output.raw(" <ScoredAssessment")
        output.attribute("type", sample.type)
        writeSource(sample)
        writeDates(sample, zone: zone)
        output.attribute("score", String(assessment.score))
        output.attribute("answers", ExportNames.assessmentAnswers(assessment).joined(separator: " "))
        closeElement("ScoredAssessment", indent: 1, hasChildren: !sample.metadata.isEmpty) {
            writeMetadata(sample.metadata, indent: 2, zone: zone)
        }
    }

    /// `/>` for an element without children; else `>`, the children, and the closing tag.
    private func closeElement(_ name: String, indent level: Int, hasChildren: Bool, children: () -> Void) {
        guard hasChildren else { return output.raw("/>\n") }
        output.raw(">\n")
        children()
        indent(level)
        output.raw("</\(name)>\n")
    }

    private func writeCorrelation(_ sample: ExportSample, members: [ExportSample]) {
        let zone = zone(of: sample)
        output.raw(" <Correlation")
        output.attribute("type", sample.type)
        writeSource(sample)
        writeDates(sample, zone: zone)
        closeElement("Correlation", indent: 1, hasChildren: !sample.metadata.isEmpty || !members.isEmpty) {
            writeMetadata(sample.metadata, indent: 2, zone: zone)
            for member in members { writeRecord(member, indent: 2) }
        }
    }

    // MARK: - Workouts

    /// `<Workout>`s with their metadata, events, activities and statistics.
    package func write(workouts: [ExportSample]) throws {
        try writeMe([:])
        for sample in workouts {
            try writeWorkout(sample)
            try output.flushIfNeeded()
        }
    }

    private func minutes(_ seconds: TimeInterval) -> String { ExportNames.number(seconds / 60) }

    private func writeWorkout(_ sample: ExportSample) throws {
        guard case .workout(let workout) = sample.value else { return }
        summary.written[sample.type, default: 0] += 1
        let zone = zone(of: sample)
        output.raw(" <Workout")
        output.attribute("workoutActivityType", workout.workoutActivityType.exportName)
        output.attribute("duration", minutes(workout.duration))
        output.attribute("durationUnit", "min")
        writeSource(sample)
        writeDates(sample, zone: zone)
        output.raw(">\n")
        writeMetadata(sample.metadata, indent: 2, zone: zone)
        for event in workout.workoutEvents ?? [] { writeEvent(event, indent: 2, zone: zone) }
        for activity in workout.workoutActivities {
            indent(2)
            output.raw("<WorkoutActivity")
            output.attribute("uuid", activity.uuid.uuidString)
            dateAttribute("startDate", activity.startDate, zone: zone)
            if let end = activity.endDate {
                dateAttribute("endDate", end, zone: zone)
                output.attribute("duration", minutes(end.timeIntervalSince(activity.startDate)))
                output.attribute("durationUnit", "min")
            }
            let metadata = sortedMetadata(activity.metadataValues)
            let empty = activity.workoutEvents.isEmpty && activity.allStatistics.isEmpty && metadata.isEmpty
            closeElement("WorkoutActivity", indent: 2, hasChildren: !empty) {
                for event in activity.workoutEvents { writeEvent(event, indent: 3, zone: zone) }
                writeStatistics(activity.allStatistics, start: activity.startDate, end: activity.endDate ?? sample.endDate,
                                indent: 3, zone: zone)
                writeMetadata(metadata, indent: 3, zone: zone)
            }
        }
        writeStatistics(workout.allStatistics, start: sample.startDate, end: sample.endDate, indent: 2, zone: zone)
        try writeRoutes(of: sample, indent: 2, zone: zone)
        output.raw(" </Workout>\n")
    }

    private func writeEvent(_ event: HKWorkoutEvent, indent level: Int, zone: TimeZone?) {
        indent(level)
        output.raw("<WorkoutEvent")
        output.attribute("type", ExportNames.workoutEventTypeNames[event.type.rawValue] ?? "HKWorkoutEventType\(event.type.rawValue)")
        dateAttribute("date", event.dateInterval.start, zone: zone)
        if event.dateInterval.duration > 0 {
            output.attribute("duration", minutes(event.dateInterval.duration))
            output.attribute("durationUnit", "min")
        }
        let metadata = sortedMetadata(event.metadataValues)
        closeElement("WorkoutEvent", indent: level, hasChildren: !metadata.isEmpty) {
            writeMetadata(metadata, indent: level + 1, zone: zone)
        }
    }

    /// `<WorkoutStatistics>`, by type identifier: `average`, `minimum`, `maximum`, `sum`, all in one unit.
    private func writeStatistics(_ statistics: [HKQuantityType: HKStatistics], start: Date, end: Date, indent level: Int, zone: TimeZone?) {
        for (type, statistic) in statistics.sorted(by: { $0.key.identifier < $1.key.identifier }) {
            let values = statistic.merged
            let quantities = [("average", values.average), ("minimum", values.minimum), ("maximum", values.maximum), ("sum", values.sum)]
            guard let unit = quantities.lazy.compactMap({ $0.1?.unit }).first else { continue }
            indent(level)
            output.raw("<WorkoutStatistics")
            output.attribute("type", type.identifier)
            dateAttribute("startDate", start, zone: zone)
            dateAttribute("endDate", end, zone: zone)
            for case let (name, quantity?) in quantities {
                guard let value = try? quantity.value(in: unit) else { continue }
                output.attribute(name, ExportNames.number(value))
            }
            output.attribute("unit", unit.unitString)
            output.raw("/>\n")
        }
    }

    /// Where a workout's `<WorkoutRoute>` children (a `FileReference` to `workout-routes/route_….gpx` each) belong,
    /// after its statistics. The store keeps no routes yet, so there is nothing to write.
    /// Each route as `<WorkoutRoute>` with its metadata and a `FileReference` to its GPX file, named as Apple names them
    /// after the route's local start (`route_2019-06-11_3.00pm.gpx`).
    private func writeRoutes(of sample: ExportSample, indent level: Int, zone: TimeZone?) throws {
        for route in sample.routes {
            let name = routeFileName(route.startDate, zone: zone ?? timeZone)
            let folder = self.folder.appendingPathComponent("workout-routes")
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try GPXWriter.data(name: name.title, locations: route.locations, exportDate: exportDate)
                    .write(to: folder.appendingPathComponent(name.file))
            } catch {
                throw HKError.invalidArgument("cannot write workout-routes/\(name.file): \(error.localizedDescription)")
            }
            indent(level)
            output.raw("<WorkoutRoute")
            output.attribute("sourceName", route.source.name)
            if let version = route.sourceVersion { output.attribute("sourceVersion", version) }
            if let device = route.device { output.attribute("device", ExportNames.device(device.device, id: device.id)) }
            dateAttribute("creationDate", route.creationDate, zone: zone)
            dateAttribute("startDate", route.startDate, zone: zone)
            dateAttribute("endDate", route.endDate, zone: zone)
            output.raw(">\n")
            writeMetadata(route.metadata, indent: level + 1, zone: zone)
            indent(level + 1)
            output.raw("<FileReference")
            output.attribute("path", "/workout-routes/" + name.file)
            output.raw("/>\n")
            indent(level)
            output.raw("</WorkoutRoute>\n")
            summary.routes += 1
        }
    }

    /// `route_2019-06-11_3.00pm.gpx` and `Route 2019-06-11 3:00pm`, in the local time of the route's start; `_2`, `_3`…
    /// when a name is taken.
    private func routeFileName(_ start: Date, zone: TimeZone) -> (file: String, title: String) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: start)
        let hour12 = (c.hour! + 11) % 12 + 1, half = c.hour! < 12 ? "am" : "pm"
        let day = String(format: "%04d-%02d-%02d", c.year!, c.month!, c.day!)
        let base = String(format: "route_%@_%d.%02d%@", day, hour12, c.minute!, half)
        var file = base + ".gpx", clash = 1
        while routeFiles.contains(file) {
            clash += 1
            file = "\(base)_\(clash).gpx"
        }
        routeFiles.insert(file)
        return (file, String(format: "Route %@ %d:%02d%@", day, hour12, c.minute!, half))
    }

    // MARK: - Activity summaries

    /// `<ActivitySummary>`s: energy in the unit the day's energy was recorded in, times in minutes, stand hours as counts.
    package func write(activitySummaries: [HKActivitySummary]) throws {
        try writeMe([:])
        for summary in activitySummaries {
            guard let day = summary.day else { continue }
            let energyUnit = summary.activeEnergyBurned.unit
            func value(_ quantity: HKQuantity, _ unit: HKUnit) -> String {
                ExportNames.number((try? quantity.value(in: unit)) ?? quantity.doubleValue)
            }
            output.raw(" <ActivitySummary")
            output.attribute("dateComponents", day.text)
            output.attribute("activeEnergyBurned", value(summary.activeEnergyBurned, energyUnit))
            output.attribute("activeEnergyBurnedGoal", value(summary.activeEnergyBurnedGoal, energyUnit))
            output.attribute("activeEnergyBurnedUnit", energyUnit.unitString)
            output.attribute("appleMoveTime", value(summary.appleMoveTime, .minute()))
            output.attribute("appleMoveTimeGoal", value(summary.appleMoveTimeGoal, .minute()))
            output.attribute("appleExerciseTime", value(summary.appleExerciseTime, .minute()))
            if let goal = summary.exerciseTimeGoal { output.attribute("appleExerciseTimeGoal", value(goal, .minute())) }
            output.attribute("appleStandHours", value(summary.appleStandHours, .count()))
            if let goal = summary.standHoursGoal { output.attribute("appleStandHoursGoal", value(goal, .count())) }
            output.raw("/>\n")
            self.summary.activitySummaries += 1
            try output.flushIfNeeded()
        }
    }

    // MARK: - Clinical records

    /// `<ClinicalRecord>` rows, each with its FHIR resource in `clinical-records/<Type>-<UUID>.json`.
    package func write(clinicalResources: [ExportClinicalResource]) throws {
        try writeMe([:])
        guard !clinicalResources.isEmpty else { return }
        let records = folder.appendingPathComponent("clinical-records")
        if !clinicalFolderMade {
            do { try FileManager.default.createDirectory(at: records, withIntermediateDirectories: true) } catch {
                throw HKError.invalidArgument("cannot create \(records.path): \(error.localizedDescription)")
            }
            clinicalFolderMade = true
        }
        for resource in clinicalResources {
            let uuid = resource.uuid ?? ExportSources.stableUUID("\(resource.resourceType)|\(resource.sourceName)|\(resource.identifier)")
            let fileName = "\(Self.fileNameSafe(resource.resourceType))-\(uuid.uuidString).json"
            do { try resource.data.write(to: records.appendingPathComponent(fileName)) } catch {
                throw HKError.invalidArgument("cannot write clinical-records/\(fileName): \(error.localizedDescription)")
            }
            output.raw(" <ClinicalRecord")
            output.attribute("type", resource.resourceType)
            output.attribute("identifier", resource.identifier)
            output.attribute("sourceName", resource.sourceName)
            output.attribute("sourceURL", resource.sourceURL ?? "")
            output.attribute("fhirVersion", resource.fhirVersion)
            dateAttribute("receivedDate", resource.receivedDate, zone: nil)
            output.attribute("resourceFilePath", "/clinical-records/\(fileName)")
            output.raw("/>\n")
            summary.clinicalRecords += 1
            try output.flushIfNeeded()
        }
    }

    /// A resource type is a FHIR name (letters), but a stored one is only trusted so far: nothing that could leave
    /// the folder.
    static func fileNameSafe(_ text: String) -> String {
        let kept = text.unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) }
        return kept.isEmpty ? "Resource" : String(String.UnicodeScalarView(kept))
    }

    // MARK: - Kept as imported

    /// Elements an import kept as written (record types the catalog does not know, audiograms, vision prescriptions),
    /// written back as they were.
    package func write(keptElements: [ExportElement]) throws {
        try writeMe([:])
        for element in keptElements {
            output.raw(" ")
            output.raw(element.xml)
            output.raw("\n")
            summary.keptElements += 1
            try output.flushIfNeeded()
        }
    }

    /// A sidecar file an import kept (`electrocardiograms/ecg_2023-03-04.csv`), at its path in the export folder.
    package func write(file path: String, data: Data) throws {
        let parts = path.split(separator: "/")
        guard !parts.isEmpty, !parts.contains(where: { $0 == ".." || $0 == "." }), !path.hasPrefix("/") else {
            throw HKError.invalidArgument("the kept file \(path) has no safe place in an export folder")
        }
        let file = folder.appendingPathComponent(path)
        do {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: file)
        } catch {
            throw HKError.invalidArgument("cannot write \(path): \(error.localizedDescription)")
        }
        summary.files += 1
    }

    // MARK: - End

    /// Closes `</HealthData>` and the file.
    package func finish() throws -> Summary {
        try writeMe([:])
        output.raw("</HealthData>\n")
        try output.close()
        summary.bytes = output.total
        return summary
    }
}
