package import Foundation
import HealthModel
import ZIPFoundation

/// Finds the export in what the person points at: `export.zip`, the unpacked folder (whatever its localized name:
/// `apple_health_export`, `Exportación de Salud`…), or `export.xml` itself. A zip is unpacked to a temporary folder
/// first (its `__MACOSX/` and `.DS_Store` entries skipped), streaming entry by entry.
package struct ExportLocation {
    /// The folder holding export.xml (and clinical-records/, workout-routes/… beside it).
    package let root: URL
    package let xml: URL
    /// A temporary folder to delete when done (for a zip).
    package let temporary: URL?

    package init(_ url: URL) throws {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else {
            throw HKError.invalidArgument("nothing to import at \(url.path)")
        }
        if isFolder.boolValue {
            guard let xml = Self.findExportXML(in: url) else {
                throw HKError.invalidArgument("no export.xml in \(url.path) (or in a folder inside it)")
            }
            (root, self.xml, temporary) = (xml.deletingLastPathComponent(), xml, nil)
        } else if url.pathExtension.lowercased() == "zip" {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ohk-export-\(UUID().uuidString)")
            try Self.unzip(url, to: folder)
            guard let xml = Self.findExportXML(in: folder) else {
                try? FileManager.default.removeItem(at: folder)
                throw HKError.invalidArgument("\(url.lastPathComponent) holds no export.xml")
            }
            (root, self.xml, temporary) = (xml.deletingLastPathComponent(), xml, folder)
        } else {
            (root, xml, temporary) = (url.deletingLastPathComponent(), url, nil)
        }
    }

    /// Removes the unpacked zip, if any.
    package func cleanUp() {
        if let temporary { try? FileManager.default.removeItem(at: temporary) }
    }

    static func findExportXML(in folder: URL) -> URL? {
        let direct = folder.appendingPathComponent("export.xml")
        if FileManager.default.fileExists(atPath: direct.path) { return direct }
        let children = (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? []
        for child in children.sorted(by: { $0.path < $1.path }) where child.lastPathComponent != "__MACOSX" {
            let candidate = child.appendingPathComponent("export.xml")
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
        }
        return nil
    }

    static func unzip(_ zip: URL, to folder: URL) throws {
        let archive: Archive
        do { archive = try Archive(url: zip, accessMode: .read) } catch {
            throw HKError.invalidArgument("\(zip.lastPathComponent) is not a readable zip archive")
        }
        for entry in archive where entry.type == .file {
            let path = entry.path
            let parts = path.split(separator: "/")
            guard !parts.contains("__MACOSX"), parts.last != ".DS_Store", !parts.contains(".."), !path.hasPrefix("/") else { continue }
            do { _ = try archive.extract(entry, to: folder.appendingPathComponent(path)) } catch {
                throw HKError.invalidArgument("\(zip.lastPathComponent): cannot unpack \(path) (\(error))")
            }
        }
    }
}
