import Foundation

/// The HealthKit fact tables (`Reference/healthkit` in the repository, with their sources in its README), read at test
/// time so that the generated catalog is checked against the source of truth rather than against itself.
enum CatalogReferenceTables {
    /// `Reference/healthkit` of the repository found from `#filePath` (the repository root is three levels above this
    /// file's folder): the path as compiled first, then its symlink-resolved form, so a scratch package whose test
    /// folder is a symlink into the repository works too.
    static let folder: URL? = repositoryRoots.map { $0.appendingPathComponent("Reference/healthkit") }
        .first { FileManager.default.fileExists(atPath: $0.appendingPathComponent("quantity-types.tsv").path) }

    /// The repository root, derived from `#filePath` as compiled and with symlinks resolved (in that order).
    static let repositoryRoots: [URL] = {
        let file = URL(fileURLWithPath: #filePath)
        var roots: [URL] = []
        for path in [file, file.resolvingSymlinksInPath()] {
            let root = path.deletingLastPathComponent()  // Tests/HealthModelTests/Catalog
                .deletingLastPathComponent()  // Tests/HealthModelTests
                .deletingLastPathComponent()  // Tests
                .deletingLastPathComponent()  // the repository root
                .standardizedFileURL
            if !roots.contains(root) { roots.append(root) }
        }
        return roots
    }()

    /// The repository holding `Scripts/generate_catalog.py` (the scratch package's symlinks lead back to it).
    static var generatorScript: URL? {
        repositoryRoots.map { $0.appendingPathComponent("Scripts/generate_catalog.py") }
            .first { FileManager.default.fileExists(atPath: $0.path) }
    }

    struct Missing: Error, CustomStringConvertible {
        let description: String
    }

    /// The rows of a table; `#` lines are comments.
    static func rows(_ name: String) throws -> [CatalogRow] {
        guard let folder else {
            throw Missing(description: "reference tables not found in \(repositoryRoots.map { $0.path + "/Reference/healthkit" })")
        }
        let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: true)
            .map { $0.hasSuffix("\r") ? String($0.dropLast()) : String($0) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
        guard let headerLine = lines.first else { throw Missing(description: "\(name) is empty") }
        let header = headerLine.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        return lines.dropFirst().map { line in
            var cells = line.split(separator: "\t", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
            cells += Array(repeating: "", count: max(0, header.count - cells.count))
            return CatalogRow(cells: Dictionary(uniqueKeysWithValues: zip(header, cells)))
        }
    }
}

/// One row of a reference table.
struct CatalogRow: CustomStringConvertible {
    let cells: [String: String]

    /// The cell of a column; empty when the table has no such column.
    subscript(_ column: String) -> String { cells[column] ?? "" }

    var isDeprecated: Bool { self["deprecated"] == "yes" }

    var description: String { cells.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ") }
}
