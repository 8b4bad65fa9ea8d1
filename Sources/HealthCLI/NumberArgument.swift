import ArgumentParser
import Foundation

/// A number on the command line that may be negative (`health add bodyTemperature -0.5 degC`,
/// `health convert -40 degC degF`).
///
/// ArgumentParser takes every word that starts with `-` for an option, so `-5` failed as "Unknown option '-5'".
/// `HealthCommand.main` hands such words over with the minus sign U+2212 in front instead (`protectingNegative`):
/// nothing else is changed, since no option of `health` is named by a digit. This type reads either sign.
struct NumberArgument: ExpressibleByArgument, Sendable, CustomStringConvertible {
    let double: Double

    init?(argument: String) {
        let ascii = argument.hasPrefix(Self.minus) ? "-" + argument.dropFirst() : argument
        guard let value = Double(ascii) else { return nil }
        self.double = value
    }

    var description: String { String(double) }

    static let minus = "\u{2212}"

    /// `word` with its leading `-` made a minus sign when the word is a negative number (`-5`, `-0.5`, `-.5`,
    /// `-1e3`, `-inf` is not one); any other word unchanged.
    static func protectingNegative(_ word: String) -> String {
        guard word.hasPrefix("-"), word.count > 1 else { return word }
        let rest = word.dropFirst()
        guard let first = rest.first, first.isASCII, first.isNumber || (first == "." && rest.count > 1),
              Double(word) != nil else { return word }
        return minus + rest
    }
}
