import Foundation

/// The test fixtures copied into the repository (`Tests/Fixtures`, each folder with its SOURCES.md: where each file
/// comes from and under which licence), found from this file's path so that a clone with nothing beside it tests.
enum Fixtures {
    /// `Tests/Fixtures`.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    /// A fixture by its path under `Tests/Fixtures`.
    static func file(_ path: String) -> URL { root.appendingPathComponent(path) }
}
