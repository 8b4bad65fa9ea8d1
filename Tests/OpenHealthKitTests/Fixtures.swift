import Foundation

/// The test fixtures copied into the repository (`Tests/Fixtures`, each folder with its SOURCES.md: where each file
/// comes from and under which licence), found from this file's path so that a clone with nothing beside it tests.
enum Fixtures {
    /// `Tests/Fixtures`.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")
    /// `Reference/`, the fact sheets the code follows (the catalog's tables, the export's DTDs).
    static let reference = root.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Reference")
}

/// FHIR resources, Bundles, SMART Health Card vectors and a sample export with clinical records.
let fhirFixtures = Fixtures.root.appendingPathComponent("fhir")
/// Real (and a few synthetic) Apple Health exports and excerpts.
let exportFixtures = Fixtures.root.appendingPathComponent("apple-health-export")
