import ArgumentParser
import Foundation
import HealthModel

/// `health types`: lists HealthKit's identifier catalog.
struct TypesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "types",
        abstract: "List HealthKit's data types: identifier, Swift name, unit and aggregation.",
        discussion: """
            Examples:
              health types                       every type
              health types --kind quantity       quantity types only
              health types --search heart        types whose identifier contains "heart"
            """
    )

    enum Kind: String, ExpressibleByArgument, CaseIterable {
        case quantity, category, characteristic, correlation, document, clinical, assessment, other
    }

    @Option(help: "Only this kind: \(Kind.allCases.map(\.rawValue).joined(separator: ", ")).")
    var kind: Kind?

    @Option(help: "Only identifiers containing this text (case-insensitive).")
    var search: String?

    func run() throws {
        let rows = Self.rows().filter { row in
            (kind == nil || row.kind == kind) && (search.map { row.identifier.localizedCaseInsensitiveContains($0) } ?? true)
        }
        guard !rows.isEmpty else {
            throw ValidationError("No type matches\(search.map { " \"\($0)\"" } ?? "")\(kind.map { " of kind \($0.rawValue)" } ?? "").")
        }
        let width = rows.map(\.identifier.count).max() ?? 0
        let nameWidth = rows.map(\.swiftName.count).max() ?? 0
        let out = Pager()
        defer { out.finish() }
        for row in rows {
            let line = [
                row.kind.rawValue.padding(toLength: 14, withPad: " ", startingAt: 0),
                row.identifier.padding(toLength: width, withPad: " ", startingAt: 0),
                row.swiftName.padding(toLength: nameWidth, withPad: " ", startingAt: 0),
                row.detail,
            ].joined(separator: "  ")
            out.print(line.trimmingTrailingSpaces())
        }
        out.print("\(rows.count) types")
    }

    struct Row {
        let kind: Kind
        let identifier: String
        let swiftName: String
        let detail: String
    }

    static func rows() -> [Row] {
        var rows: [Row] = HealthCatalog.quantityTypes.map { info in
            Row(kind: .quantity, identifier: info.identifier, swiftName: info.swiftName,
                detail: info.canonicalUnitString.padding(toLength: 13, withPad: " ", startingAt: 0) + info.aggregationStyle.name)
        }
        rows += HealthCatalog.categoryTypes.map { info in
            Row(kind: .category, identifier: info.identifier, swiftName: info.swiftName,
                detail: info.valueEnumName ?? "(value enum unknown)")
        }
        rows += HealthCatalog.otherTypes.map { info in
            let kind: Kind = switch info.kind {
            case "characteristic": .characteristic
            case "correlation": .correlation
            case "document": .document
            case "clinical": .clinical
            case "scored-assessment": .assessment
            default: .other
            }
            return Row(kind: kind, identifier: info.identifier, swiftName: info.swiftName, detail: info.group)
        }
        return rows
    }
}

extension HKQuantityAggregationStyle {
    /// The style's name as HealthKit's header comments write it.
    var name: String {
        switch self {
        case .cumulative: "cumulative"
        case .discreteArithmetic: "discrete (arithmetic)"
        case .discreteTemporallyWeighted: "discrete (temporally weighted)"
        case .discreteEquivalentContinuousLevel: "discrete (equivalent continuous level)"
        }
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var s = self
        while s.last == " " { s.removeLast() }
        return s
    }
}
