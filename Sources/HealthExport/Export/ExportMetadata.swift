import Foundation
import HealthModel
import HealthStore

/// The `MetadataEntry` values of an export, typed: HealthKit keys by the kind their table gives (a quantity
/// `"6575 cm"`, a number, a Boolean `0`/`1`, a date), other keys (third-party ones hold spaces) as text.
enum ExportMetadata {
    static func typed(_ entries: [(String, String)]) -> [String: HKMetadataValue]? {
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
}
