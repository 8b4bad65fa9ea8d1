import ArgumentParser
import Foundation
import OpenHealthKit

/// `health characteristic`: the person enters a characteristic (apps can only read them).
struct CharacteristicCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "characteristic",
        abstract: "Set one of the person's characteristics.",
        discussion: """
            Values:
              dateOfBirth    YYYY-MM-DD, or none
              biologicalSex  female, male, other, none
              bloodType      A+, A-, B+, B-, AB+, AB-, O+, O-, none
              skinType       I, II, III, IV, V, VI, none
              wheelchairUse  yes, no, none
              moveMode       activeEnergy, appleMoveTime
            Example:
              health characteristic bloodType O-
            """)

    enum Name: String, ExpressibleByArgument, CaseIterable {
        case dateOfBirth, biologicalSex, bloodType, skinType, wheelchairUse, moveMode
    }

    @Argument(help: "dateOfBirth, biologicalSex, bloodType, skinType, wheelchairUse or moveMode.")
    var name: Name

    @Argument(help: "The value (see below).")
    var value: String

    @OptionGroup var store: StoreOptions

    func run() throws {
        let person = try store.person()
        func pick<E>(_ table: [String: E]) throws -> E {
            guard let found = table[value] ?? table[value.lowercased()] else {
                throw CommandFailure("\"\(value)\" is not a \(name.rawValue); use one of \(table.keys.sorted().joined(separator: ", "))")
            }
            return found
        }
        try reporting {
            switch name {
            case .dateOfBirth:
                if value == "none" { return try person.setDateOfBirth(nil) }
                let parts = value.split(separator: "-").compactMap { Int($0) }
                guard parts.count == 3 else { throw CommandFailure("a date of birth is YYYY-MM-DD, not \"\(value)\"") }
                try person.setDateOfBirth(DateComponents(year: parts[0], month: parts[1], day: parts[2]))
            case .biologicalSex:
                try person.setBiologicalSex(pick(["female": .female, "male": .male, "other": .other, "none": .notSet]))
            case .bloodType:
                try person.setBloodType(pick(["A+": .aPositive, "A-": .aNegative, "B+": .bPositive, "B-": .bNegative,
                                              "AB+": .abPositive, "AB-": .abNegative, "O+": .oPositive, "O-": .oNegative,
                                              "none": .notSet]))
            case .skinType:
                try person.setFitzpatrickSkinType(pick(["I": .I, "II": .II, "III": .III, "IV": .IV, "V": .V, "VI": .VI, "none": .notSet]))
            case .wheelchairUse:
                try person.setWheelchairUse(pick(["yes": .yes, "no": .no, "none": .notSet]))
            case .moveMode:
                try person.setActivityMoveMode(pick(["activeEnergy": .activeEnergy, "appleMoveTime": .appleMoveTime]))
            }
        }
        print("\(name.rawValue): \(value)")
    }
}
