import Foundation
import Testing
@testable import HealthExport
@testable import OpenHealthKit

/// The fixtures made for one test each (Tests/Fixtures/made, by its make.py).
let madeFixtures = Fixtures.root.appendingPathComponent("made")

private func freshPerson() throws -> (HealthPerson, URL) {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ohk-zip-\(UUID().uuidString)")
    return (try HealthPerson(storeDirectory: folder), folder)
}

/// The message of the error `body` throws, or nil when it throws none.
private func failure(_ body: () throws -> Any) -> String? {
    do { _ = try body(); return nil } catch let error as HKError { return error.message } catch { return "\(error)" }
}

@Suite("export.zip read in place")
struct ExportArchiveTests {
    @Test func aZipIsImportedWithoutUnpackingIt() throws {
        let (person, folder) = try freshPerson()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try person.importExport(at: madeFixtures.appendingPathComponent("export.zip"))
        #expect(result.added == [HKQuantityTypeIdentifier.stepCount.rawValue: 1] && result.problems.isEmpty)
        // The size reported is export.xml's own, read from the archive's directory.
        let xml = try ZipArchiveReader(url: madeFixtures.appendingPathComponent("export.zip")).entry("apple_health_export/export.xml")
        #expect(result.bytes == Int(try #require(xml).uncompressedSize))
    }

    @Test func routesAndElectrocardiogramsAreReadFromTheArchiveAndTheCDACopyNever() throws {
        let (person, folder) = try freshPerson()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try person.importExport(at: madeFixtures.appendingPathComponent("with-side-files.zip"))
        #expect(result.added[HKWorkoutRouteTypeIdentifier] == 1, "\(result.problems)")
        #expect(result.keptFiles == ["electrocardiograms/ecg_2026-10-30.csv"])
        // Its export_cda.xml is not DEFLATE data at all: reading it would fail the import.
        let unreadable = try person.importExport(at: madeFixtures.appendingPathComponent("unreadable-cda.zip"))
        #expect(unreadable.problems.isEmpty)
    }

    @Test func anEntryThatLeavesTheFolderIsRefusedBeforeAnythingIsImported() throws {
        let (person, folder) = try freshPerson()
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["traversal.zip", "absolute.zip"] {
            let message = failure { try person.importExport(at: madeFixtures.appendingPathComponent(name)) }
            #expect(message?.contains("\(name) holds an entry whose path leaves the archive's folder") == true, "\(message ?? "no error")")
            #expect(message?.contains("nothing imported") == true)
        }
        #expect(try person.summary().isEmpty)
    }

    @Test func zipBombsAreRefused() throws {
        let (person, folder) = try freshPerson()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bomb = failure { try person.importExport(at: madeFixtures.appendingPathComponent("bomb.zip")) }
        #expect(bomb?.contains("export.xml would inflate") == true && bomb?.contains("refused as a zip bomb") == true, "\(bomb ?? "no error")")
        let lying = failure { try person.importExport(at: madeFixtures.appendingPathComponent("lying-size.zip")) }
        #expect(lying?.contains("inflates past the 2.0 MB its directory declares") == true, "\(lying ?? "no error")")
        let overlap = failure { try person.importExport(at: madeFixtures.appendingPathComponent("overlap.zip")) }
        #expect(overlap?.contains("overlap: refused as a zip bomb") == true, "\(overlap ?? "no error")")
    }

    @Test func aDamagedArchiveSaysSo() throws {
        let (person, folder) = try freshPerson()
        defer { try? FileManager.default.removeItem(at: folder) }
        let checksum = failure { try person.importExport(at: madeFixtures.appendingPathComponent("bad-checksum.zip")) }
        #expect(checksum?.hasPrefix("bad-checksum.zip is damaged: the checksum of apple_health_export/export.xml does not match (CRC-32); ") == true,
                "\(checksum ?? "no error")")
        let notZip = folder.appendingPathComponent("not.zip")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("just text".utf8).write(to: notZip)
        #expect(failure { try person.importExport(at: notZip) } == "not.zip is not a zip archive (it has no end-of-central-directory record)")
    }

    /// A single bit flipped in export.xml's DEFLATE data is caught — invalid data, a size or a checksum that does
    /// not match — unless it changes nothing that is inflated (the padding after the last block).
    @Test func everyBitFlippedInTheCompressedDataIsDamageOrChangesNothing() throws {
        let original = try Data(contentsOf: madeFixtures.appendingPathComponent("export.zip"))
        let archive = try ZipArchiveReader(url: madeFixtures.appendingPathComponent("export.zip"))
        let entry = try #require(archive.entries.first { $0.path.hasSuffix("export.xml") })
        let intact = try archive.data(entry, limit: 1 << 20)
        let nameLength = Int(original[26]) | Int(original[27]) << 8, extraLength = Int(original[28]) | Int(original[29]) << 8
        let dataStart = 30 + nameLength + extraLength
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("ohk-flip-\(UUID().uuidString).zip")
        defer { try? FileManager.default.removeItem(at: file) }
        var caught = 0, harmless = 0
        // Every 7th bit: each position in a byte, all along the data (every bit took 20 s on a busy machine).
        for bit in stride(from: 0, to: Int(entry.compressedSize) * 8, by: 7) {
            var flipped = original
            flipped[dataStart + bit / 8] ^= UInt8(1 << (bit % 8))
            try flipped.write(to: file)
            do {
                let inflated = try ZipArchiveReader(url: file).data(entry, limit: 1 << 20)
                #expect(inflated == intact, "bit \(bit) changed the data unnoticed")
                harmless += 1
            } catch let error as HKError {
                #expect(error.message.contains("is damaged"), "bit \(bit): \(error.message)")
                caught += 1
            }
        }
        #expect(caught > 0 && harmless < 2)
        // Imported, a flip in the middle fails the import as damaged, and nothing of it is stored.
        var flipped = original
        flipped[dataStart + Int(entry.compressedSize) / 2] ^= 0x10
        try flipped.write(to: file)
        let (person, folder) = try freshPerson()
        defer { try? FileManager.default.removeItem(at: folder) }
        let message = failure { try person.importExport(at: file) }
        #expect(message?.contains("is damaged") == true && message?.hasSuffix("nothing of the export was stored") == true, "\(message ?? "no error")")
        #expect(try person.summary().isEmpty)
    }

    @Test func theCDACopyGivenByMistakeIsExplained() throws {
        let (person, folder) = try freshPerson()
        defer { try? FileManager.default.removeItem(at: folder) }
        let message = failure { try person.importExport(at: madeFixtures.appendingPathComponent("export_cda.xml")) }
        #expect(message?.hasPrefix("export_cda.xml is the export's HL7 CDA document") == true, "\(message ?? "no error")")
        #expect(message?.contains("import export.xml, its folder, or the export.zip") == true)
    }

    @Test func aStreamNeverGivesMoreThanItsEntryDeclares() throws {
        let archive = try ZipArchiveReader(url: madeFixtures.appendingPathComponent("lying-size.zip"))
        let entry = try #require(archive.entries.first)
        let stream = try archive.stream(entry)
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var read = 0
        #expect(throws: HKError.self) {
            while true {
                let count = try buffer.withUnsafeMutableBytes { try stream.read(into: $0) }
                if count == 0 { break }
                read += count
            }
        }
        #expect(read <= 2_000_000)
    }
}
