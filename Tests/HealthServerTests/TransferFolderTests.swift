import Foundation
@testable import HealthServer
@testable import HealthStore
import OpenHealthKit
import Testing

/// The web app's uploads and downloads of a whole export pass through a private folder; for an encrypted store that
/// folder is in memory, so the person's history never lands on disk in clear.
@Suite("The web app's transfer folder")
struct TransferFolderTests {
    @Test func anEncryptedStoresTransfersAreKeptInMemoryAPlainStoresInTheTemporaryFolder() throws {
        let folder = try DaemonHarness.privateFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let encrypted = folder.appendingPathComponent("encrypted"), plain = folder.appendingPathComponent("plain")
        try StoreEncryption.create(encrypted, passphrase: "passphrase", scrypt: .fast)
        defer { StoreEncryption.forget(encrypted) }
        try FileManager.default.createDirectory(at: plain, withIntermediateDirectories: true)

        let inMemory = try TransferFolder.make("openhealthkit-export", for: encrypted)
        defer { try? FileManager.default.removeItem(at: inMemory) }
        #expect(inMemory.path.hasPrefix("/dev/shm/openhealthkit-export-"), "\(inMemory.path)")
        #expect(TransferFolder.isMemoryBacked(inMemory))
        #expect((try FileManager.default.attributesOfItem(atPath: inMemory.path)[.posixPermissions] as? Int) == 0o700)

        let onDisk = try TransferFolder.make("openhealthkit-export", for: plain)
        defer { try? FileManager.default.removeItem(at: onDisk) }
        #expect(onDisk.deletingLastPathComponent().standardizedFileURL == FileManager.default.temporaryDirectory.standardizedFileURL)
        #expect(!TransferFolder.isMemoryBacked(URL(fileURLWithPath: "/no/such/folder")))
    }

    @Test func anEncryptedStoreIsDownloadedWholeAndItsInMemoryFolderGoesAfterwards() async throws {
        try await WebAppHarness.with(.encrypted) { web in
            let download = try await WebAppMoreHTTP.send(web.browser, .GET, "/export.zip")
            #expect(download.status == 200 && download.data.starts(with: [0x50, 0x4B, 0x03, 0x04]), "\(download.status)")
            // The in-memory folder goes once the body is sent (just after the last byte reaches the browser).
            var leftInMemory: [String] = []
            for _ in 0..<100 {
                leftInMemory = try FileManager.default.contentsOfDirectory(atPath: "/dev/shm").filter { $0.hasPrefix("openhealthkit-export-") }
                if leftInMemory.isEmpty { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(leftInMemory.isEmpty, "the in-memory folder goes once the download is sent: \(leftInMemory)")
        }
    }
}
