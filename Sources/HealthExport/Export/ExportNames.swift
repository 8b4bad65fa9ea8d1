import Foundation
import HealthModel

/// The names and texts an export writes for values: category values and enum constants by their ObjC names
/// (`HKCategoryValueSleepAnalysisAsleepCore`, `HKBiologicalSexFemale`), numbers as plain decimals, metadata values,
/// and devices as `-[HKDevice description]` prints them.
enum ExportNames {
    /// Names HealthKit replaced but kept as aliases of the same raw value; the current name is written instead.
    static let legacyNames: Set<String> = ["HKCategoryValueSleepAnalysisAsleep", "HKCategoryValueOvulationTestResultPositive"]

    /// For each category type, its values' names by raw value.
    static let categoryValueNames: [String: [Int: String]] = {
        var byType: [String: [Int: String]] = [:]
        for info in HealthCatalog.categoryTypes {
            guard let enumName = info.valueEnumName else { continue }
            if enumName == "HKCategoryValue" {
                byType[info.identifier] = [0: "HKCategoryValueNotApplicable"]
                continue
            }
            byType[info.identifier] = names(in: categoryValueRawValuesByName, prefix: enumName)
        }
        return byType
    }()

    /// The constants of an enum (`HKBiologicalSex`) by raw value, current names before legacy ones.
    static func names(in table: [String: Int], prefix: String) -> [Int: String] {
        var names: [Int: String] = [:]
        for (name, raw) in table where name.hasPrefix(prefix) {
            let rest = name.dropFirst(prefix.count)
            guard let first = rest.first, first.isUppercase || first.isNumber else { continue }
            if let existing = names[raw] {
                let keepExisting = legacyNames.contains(name) || (!legacyNames.contains(existing) && existing < name)
                if keepExisting { continue }
            }
            names[raw] = name
        }
        return names
    }

    static let biologicalSexNames = names(in: modelEnumRawValuesByName, prefix: "HKBiologicalSex")
    static let bloodTypeNames = names(in: modelEnumRawValuesByName, prefix: "HKBloodType")
    static let skinTypeNames = names(in: modelEnumRawValuesByName, prefix: "HKFitzpatrickSkinType")
    static let workoutEventTypeNames = names(in: modelEnumRawValuesByName, prefix: "HKWorkoutEventType")

    static let stateOfMindKindNames = names(in: nestedEnumRawValuesByName, prefix: "HKStateOfMindKind")
    static let stateOfMindLabelNames = names(in: nestedEnumRawValuesByName, prefix: "HKStateOfMindLabel")
    static let stateOfMindAssociationNames = names(in: nestedEnumRawValuesByName, prefix: "HKStateOfMindAssociation")

    /// A state of mind's kind, label or association by its ObjC name (`HKStateOfMindLabelHappy`).
    static func stateOfMindName(_ kind: HKStateOfMind.Kind) -> String { stateOfMindKindNames[kind.rawValue] ?? String(kind.rawValue) }
    static func stateOfMindName(_ label: HKStateOfMind.Label) -> String { stateOfMindLabelNames[label.rawValue] ?? String(label.rawValue) }
    static func stateOfMindName(_ association: HKStateOfMind.Association) -> String {
        stateOfMindAssociationNames[association.rawValue] ?? String(association.rawValue)
    }

    static let doseScheduleTypeNames = names(in: nestedEnumRawValuesByName, prefix: "HKMedicationDoseEventScheduleType")
    static let doseLogStatusNames = names(in: nestedEnumRawValuesByName, prefix: "HKMedicationDoseEventLogStatus")

    /// A dose event's schedule type or log status by its ObjC name (`HKMedicationDoseEventLogStatusTaken`).
    static func doseName(_ type: HKMedicationDoseEvent.ScheduleType) -> String { doseScheduleTypeNames[type.rawValue] ?? String(type.rawValue) }
    static func doseName(_ status: HKMedicationDoseEvent.LogStatus) -> String { doseLogStatusNames[status.rawValue] ?? String(status.rawValue) }

    /// The value of an enum constant of a state of mind written by its ObjC name, if `name` is one of `prefix`'s.
    static func stateOfMindValue<E: RawRepresentable>(_ name: Substring, prefix: String, as type: E.Type) -> E? where E.RawValue == Int {
        guard name.hasPrefix(prefix), let raw = nestedEnumRawValuesByName[String(name)] else { return nil }
        return E(rawValue: raw)
    }

    static let gad7AnswerNames = names(in: nestedEnumRawValuesByName, prefix: "HKGAD7AssessmentAnswer")
    static let phq9AnswerNames = names(in: nestedEnumRawValuesByName, prefix: "HKPHQ9AssessmentAnswer")

    /// A scored assessment's answers by their ObjC names (`HKGAD7AssessmentAnswerSeveralDays`).
    static func assessmentAnswers(_ assessment: HKScoredAssessment) -> [String] {
        let names = assessment is HKPHQ9Assessment ? phq9AnswerNames : gad7AnswerNames
        return assessment.answerRawValues.map { names[$0] ?? String($0) }
    }

    /// The raw value of an answer written by its ObjC name, if it is one of `type`'s answers.
    static func assessmentAnswer(_ name: Substring, type: HKScoredAssessmentType) -> Int? {
        let prefix = type.identifier == HKScoredAssessmentTypeIdentifier.PHQ9.rawValue ? "HKPHQ9AssessmentAnswer" : "HKGAD7AssessmentAnswer"
        guard name.hasPrefix(prefix) else { return nil }
        return nestedEnumRawValuesByName[String(name)]
    }

    /// A category sample's value as the export writes it: the value's name, or the number when the type has none.
    static func categoryValue(_ value: Int, type: String) -> String {
        categoryValueNames[type]?[value] ?? String(value)
    }

    /// A number as the export writes it: integers without a fraction, others in the shortest form that reads back
    /// as the same `Double`.
    static func number(_ value: Double) -> String {
        if value.rounded() == value, abs(value) < 1e15 { return String(Int64(value)) }
        return value.description
    }

    /// A metadata value as the export writes it: text as is, numbers and Booleans (`0`/`1`) as numbers, quantities
    /// as `"6575 cm"`, dates in the export's form.
    static func metadataValue(_ value: HKMetadataValue, dates: inout ExportDateWriter, zone: TimeZone?) -> String {
        switch value {
        case .string(let text): text
        case .integer(let integer): String(integer)
        case .double(let double): number(double)
        case .bool(let bool): bool ? "1" : "0"
        case .quantity(let quantity): number(quantity.doubleValue) + " " + quantity.unit.unitString
        case .date(let date): dates.text(date, zone: zone)
        }
    }

    /// `-[HKDevice description]`: `<<HKDevice: 0x…>, name:Apple Watch, manufacturer:Apple Inc., model:Watch,
    /// hardware:Watch6,1, software:10.4>`, with the fields that are set. The pointer is made from the device's row id:
    /// Apple's changes with every record and means nothing.
    static func device(_ device: HKDevice, id: Int64) -> String {
        var text = "<<HKDevice: 0x" + String(0x6000_0000_0000 &+ UInt64(truncatingIfNeeded: id) &* 0x40, radix: 16) + ">"
        let fields: [(String, String?)] = [
            ("name", device.name), ("manufacturer", device.manufacturer), ("model", device.model), ("hardware", device.hardwareVersion),
            ("firmware", device.firmwareVersion), ("software", device.softwareVersion), ("localIdentifier", device.localIdentifier),
            ("UDIDeviceIdentifier", device.udiDeviceIdentifier),
        ]
        for case let (key, value?) in fields { text += ", \(key):\(value)" }
        return text + ">"
    }
}
