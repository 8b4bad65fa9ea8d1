import Foundation

/// The authorization sheet in a terminal: lists what the app asks for, with its usage descriptions, then
/// asks about each type in turn. `y` allows, `n` denies, `q` (or the end of input) closes the sheet without
/// deciding anything, as dismissing HealthKit's sheet does.
///
/// ```
/// Steps (com.example.steps) would like to access your health data.
///   Why it reads: Steps charts your steps.
///   Why it writes: Steps saves the walks you log.
/// Allow Steps to write Step Count? [y/n/q] y
/// Allow Steps to read Step Count? [y/n/q] n
/// ```
public struct TerminalPresenter: HKAuthorizationPresenter {
    private let readLine: @Sendable () -> String?
    private let write: @Sendable (String) -> Void

    /// A presenter on standard input and output.
    public init() {
        self.init(readLine: { Swift.readLine() }, write: { text in
            FileHandle.standardOutput.write(Data(text.utf8))
        })
    }

    /// A presenter on any line source and text sink.
    public init(readLine: @escaping @Sendable () -> String?, write: @escaping @Sendable (String) -> Void) {
        self.readLine = readLine
        self.write = write
    }

    public func present(_ sheet: AuthorizationSheet) async -> AuthorizationSheet.Response {
        let app = sheet.app
        write("\(app.name) (\(app.bundleIdentifier)) would like to access your health data.\n")
        if !sheet.readTypes.isEmpty, let why = app.shareUsageDescription { write("  Why it reads: \(why)\n") }
        if !sheet.shareTypes.isEmpty, let why = app.updateUsageDescription { write("  Why it writes: \(why)\n") }
        if !sheet.requiredReadTypes.isEmpty {
            write("  It cannot work without: \(sheet.requiredReadTypes.sorted().map(Self.displayName).joined(separator: ", "))\n")
        }
        var share = Set<String>(), read = Set<String>()
        for (verb, types) in [("write", sheet.shareTypes), ("read", sheet.readTypes)] {
            for type in types.sorted() {
                guard let allowed = ask("Allow \(app.name) to \(verb) \(Self.displayName(type))?") else { return .dismissed }
                if allowed, verb == "write" { share.insert(type) } else if allowed { read.insert(type) }
            }
        }
        return .decided(share: share, read: read)
    }

    /// Lists each matching record and asks whether to share it; `q` closes the sheet (the query is cancelled). With
    /// nothing matching, says so and shares nothing.
    public func present(_ sheet: RecordSharingSheet) async -> RecordSharingSheet.Response {
        write("\(sheet.app.name) (\(sheet.app.bundleIdentifier)) asks for your verifiable health records.\n")
        if let why = sheet.app.clinicalUsageDescription { write("  Why: \(why)\n") }
        if sheet.records.isEmpty {
            write("  You have no records of the kinds it asks for; nothing is shared.\n")
            return .share([])
        }
        var shared = Set<UUID>()
        for candidate in sheet.records {
            let record = candidate.record
            let items = record.itemNames.joined(separator: "; ")
            write("  \(record.subject.fullName), from \(record.issuerIdentifier)\(candidate.verified ? "" : " (issuer not verified)"): \(items)\n")
            guard let allowed = ask("Share it with \(sheet.app.name)?") else { return .cancelled }
            if allowed { shared.insert(record.uuid) }
        }
        return .share(shared)
    }

    /// Lists each matching object (a vision prescription) with whether the app may read it now, and asks about each;
    /// `q` closes the sheet (nothing changes). With nothing matching, says so.
    public func present(_ sheet: ObjectAuthorizationSheet) async -> ObjectAuthorizationSheet.Response {
        let what = Self.displayName(sheet.typeIdentifier).lowercased()
        write("\(sheet.app.name) (\(sheet.app.bundleIdentifier)) asks to read your \(what)s, one by one.\n")
        if let why = sheet.app.shareUsageDescription { write("  Why it reads: \(why)\n") }
        if sheet.objects.isEmpty {
            write("  You have none.\n")
            return .allow([])
        }
        var allowed = Set<UUID>()
        for candidate in sheet.objects {
            write("  \(candidate.summary)\(candidate.allowed ? " — it may read this now" : "")\n")
            guard let yes = ask("Allow \(sheet.app.name) to read it?") else { return .dismissed }
            if yes { allowed.insert(candidate.uuid) }
        }
        return .allow(allowed)
    }

    /// `true` for yes, `false` for no, `nil` to close the sheet; asks again on anything else.
    private func ask(_ question: String) -> Bool? {
        while true {
            write("\(question) [y/n/q] ")
            guard let line = readLine()?.trimmingCharacters(in: .whitespaces).lowercased() else {
                write("\n")
                return nil
            }
            switch line {
            case "y", "yes": return true
            case "n", "no": return false
            case "q", "quit": return nil
            default: write("Please answer y (allow), n (deny) or q (close without deciding).\n")
            }
        }
    }

    /// A type identifier as people read it, on the terminal and in the web Health app: "HKQuantityTypeIdentifierStepCount"
    /// → "Step Count", "HKQuantityTypeIdentifierUVExposure" → "UV Exposure"; the types whose identifiers do not follow
    /// the pattern have their names here.
    public static func displayName(_ identifier: String) -> String {
        switch identifier {
        case HKWorkoutTypeIdentifier: return "Workouts"
        case HKWorkoutRouteTypeIdentifier: return "Workout Routes"
        case HKDataTypeIdentifierHeartbeatSeries: return "Heartbeat Series"
        case HKDataTypeIdentifierStateOfMind: return "State of Mind"
        case HKVisionPrescriptionTypeIdentifier: return "Vision Prescription"
        case HKDataTypeIdentifierUserAnnotatedMedicationConcept: return "Medication"
        case HKMedicationDoseEventTypeIdentifierMedicationDoseEvent: return "Medication Doses"
        case HKScoredAssessmentTypeIdentifier.GAD7.rawValue: return "GAD-7 Assessment"
        case HKScoredAssessmentTypeIdentifier.PHQ9.rawValue: return "PHQ-9 Assessment"
        default: break
        }
        var name = identifier
        for prefix in ["HKQuantityTypeIdentifier", "HKCategoryTypeIdentifier", "HKCharacteristicTypeIdentifier",
                       "HKCorrelationTypeIdentifier", "HKClinicalTypeIdentifier", "HKDocumentTypeIdentifier", "HKDataTypeIdentifier",
                       "HKAudiogramTypeIdentifier", "HKElectrocardiogramType", "HK"] where name.hasPrefix(prefix) {
            name.removeFirst(prefix.count)
            break
        }
        if name.isEmpty { return identifier }
        // A word starts at a capital after a small letter, or at the last capital of an acronym followed by a small
        // letter ("UVExposure"), or at a capital after a digit ("VO2Max"); digits stay with what they follow ("B6").
        var words = ""
        let characters = Array(name)
        for (index, character) in characters.enumerated() where index > 0 {
            let previous = characters[index - 1], next = index + 1 < characters.count ? characters[index + 1] : nil
            if character.isUppercase, previous.isLowercase || previous.isNumber || (previous.isUppercase && next?.isLowercase == true) {
                words += " "
            }
            words.append(character)
        }
        return String(characters[0]) + words
    }
}
