import Foundation
import Testing

/// Reading commands on a store that does not exist say so; they never create an empty one that answers "no samples".
@Suite("A store that is not there")
struct MissingStoreTests {
    @Test(arguments: [["query", "stepCount"], ["stats", "stepCount"], ["summary"], ["apps"], ["export", "/tmp/ohk-never-written"]])
    func readingCommandsRefuseAMissingStoreAndCreateNothing(arguments: [String]) async throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("ohk-missing-\(UUID().uuidString)")
        let run = try await runHealth(arguments + ["--store", missing.path])
        #expect(run.status != 0)
        #expect(run.stderr.contains("there is no store in \(missing.path)"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: missing.path))
    }
}
