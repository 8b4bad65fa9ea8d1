package import Foundation
import HealthModel

/// The export the person points at — `export.zip`, the unpacked folder (whatever its localized name:
/// `apple_health_export`, `Exportación de Salud`…), or `export.xml` itself — and the files beside export.xml.
///
/// A zip is read in place: export.xml is inflated as it is scanned, and a side file (a route's GPX, an
/// electrocardiogram, a health record) is read into memory when the import reaches it. Nothing is unpacked to disk,
/// and `export_cda.xml` — the export's second, CDA copy of the same data, often larger than export.xml — is never read.
package final class ExportLocation: @unchecked Sendable {
    private enum Storage {
        /// The folder holding export.xml.
        case folder(URL)
        /// The archive, and the folder inside it that holds export.xml (`apple_health_export/`, or empty).
        case zip(ZipArchiveReader, prefix: String)
    }

    private let storage: Storage
    /// Opens export.xml: a file, or an entry of the archive.
    private let open: @Sendable () throws -> any ByteStream

    /// What the person gave, for messages.
    package let name: String
    /// The size of export.xml in bytes (uncompressed), 0 when unknown (a pipe).
    package let xmlSize: Int
    /// Whether export.xml can be read more than once (not a pipe).
    package let xmlCanBeReadTwice: Bool

    /// The largest side file read into memory: a route's GPX, an electrocardiogram, a FHIR resource.
    package static let sideFileLimit = 256 << 20

    package init(_ url: URL) throws {
        name = url.lastPathComponent
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else {
            throw HKError.invalidArgument("nothing to import at \(url.path)")
        }
        if isFolder.boolValue {
            guard let found = Self.exportXML(in: url) else {
                throw HKError.invalidArgument("no export.xml in \(url.path) (or in a folder inside it)"
                                              + (Self.cdaHint(in: url).map { ": \($0)" } ?? ""))
            }
            storage = .folder(found.deletingLastPathComponent())
            (open, xmlSize, xmlCanBeReadTwice) = Self.file(found)
        } else if url.pathExtension.lowercased() == "zip" {
            let archive = try ZipArchiveReader(url: url)
            let files = archive.entries.filter { !$0.isDirectory }.map(\.path)
            guard let path = Self.exportXML(among: files), let entry = archive.entry(path) else {
                let cda = files.contains { Self.isCDAName($0) } ? " (only export_cda.xml, the CDA copy; an export.xml belongs beside it)" : ""
                throw HKError.invalidArgument("\(url.lastPathComponent) holds no export.xml\(cda)")
            }
            storage = .zip(archive, prefix: path.split(separator: "/").dropLast().joined(separator: "/"))
            open = { try archive.stream(entry) }
            (xmlSize, xmlCanBeReadTwice) = (Int(clamping: entry.uncompressedSize), true)
        } else {
            try Self.refuseCDA(url)
            storage = .folder(url.deletingLastPathComponent())
            (open, xmlSize, xmlCanBeReadTwice) = Self.file(url)
        }
    }

    /// How to open export.xml as a file, its size (0 for a pipe) and whether it can be read twice (not a pipe).
    private static func file(_ url: URL) -> (@Sendable () throws -> any ByteStream, Int, Bool) {
        let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
        let regular = attributes?[.type] as? FileAttributeType == .typeRegular
        return ({ try FileByteStream(url: url) }, regular ? (attributes?[.size] as? Int ?? 0) : 0, regular)
    }

    /// export.xml from its start.
    package func openXML() throws -> any ByteStream {
        try open()
    }

    /// A scanner over export.xml.
    package func scanner(maximumTokenBytes: Int = XMLStartTagScanner.defaultMaximumTokenBytes) -> XMLStartTagScanner {
        XMLStartTagScanner(maximumTokenBytes: maximumTokenBytes) { try self.openXML() }
    }

    /// The file at `path` beside export.xml (`/workout-routes/route_….gpx`, `clinical-records/….json`: the paths
    /// export.xml gives, from the export's folder), or nil when the export has no such file. A path that would leave
    /// the export's folder, or a file over `limit` bytes, is an error.
    package func file(_ path: String, limit: Int = sideFileLimit) throws -> Data? {
        let relative = String(path.drop { $0 == "/" })
        try ZipArchiveReader.check(path: relative, archive: name)
        switch storage {
        case .folder(let root):
            let url = root.appendingPathComponent(relative)
            guard FileManager.default.fileExists(atPath: url.path) else { return nil }
            // A link inside the export may point anywhere: what it leads to must still be inside the export.
            let inside = root.resolvingSymlinksInPath().standardizedFileURL.path + "/"
            guard url.resolvingSymlinksInPath().standardizedFileURL.path.hasPrefix(inside) else {
                throw HKError.invalidArgument("\(relative) leads outside the export (a link to \(url.resolvingSymlinksInPath().path)): not read")
            }
            let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
            guard size <= limit else { throw HKError.invalidArgument("\(relative) is larger than \(limit / 1_000_000) MB: not read") }
            return try Data(contentsOf: url)
        case .zip(let archive, let prefix):
            guard let entry = archive.entry(prefix.isEmpty ? relative : prefix + "/" + relative) else { return nil }
            return try archive.data(entry, limit: limit)
        }
    }

    /// The paths of the files in `folder` beside export.xml (`electrocardiograms/ecg_2020-01-01.csv`), sorted.
    package func files(in folder: String) -> [String] {
        switch storage {
        case .folder(let root):
            let names = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)) ?? []
            return names.filter { !$0.hasPrefix(".") }.map { folder + "/" + $0 }.sorted()
        case .zip(let archive, let prefix):
            let start = (prefix.isEmpty ? "" : prefix + "/") + folder + "/"
            return archive.entries.filter { !$0.isDirectory && $0.path.hasPrefix(start) }
                .map { folder + "/" + $0.path.dropFirst(start.count) }
                .filter { !$0.contains("__MACOSX") && !$0.hasSuffix(".DS_Store") }.sorted()
        }
    }

    // MARK: Finding export.xml

    /// export.xml in `folder` or in a folder inside it (the unpacked archive's own folder).
    static func exportXML(in folder: URL) -> URL? {
        let fileManager = FileManager.default
        var candidates = [folder]
        let children = ((try? fileManager.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? [])
            .filter { $0.lastPathComponent != "__MACOSX" }.sorted { $0.path < $1.path }
        candidates += children.filter { (try? $0.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true }
        for candidate in candidates {
            let names = (try? fileManager.contentsOfDirectory(atPath: candidate.path)) ?? []
            if let name = exportXML(among: names) { return candidate.appendingPathComponent(name) }
        }
        return nil
    }

    /// Of some paths, the export's main XML file at the top or one folder down: `export.xml`, or else the one XML
    /// file there that is not the CDA copy (a Chinese export names it 导出.xml).
    static func exportXML(among paths: [String]) -> String? {
        let shallow = paths.filter { path in
            let parts = path.split(separator: "/")
            return parts.count <= 2 && !parts.contains("__MACOSX") && !(parts.last?.hasPrefix(".") ?? true)
        }.sorted { ($0.split(separator: "/").count, $0) < ($1.split(separator: "/").count, $1) }
        if let exact = shallow.first(where: { $0 == "export.xml" || $0.hasSuffix("/export.xml") }) { return exact }
        let others = shallow.filter { $0.lowercased().hasSuffix(".xml") && !isCDAName($0) }
        return others.count == 1 ? others[0] : nil
    }

    static func isCDAName(_ path: String) -> Bool {
        (path.split(separator: "/").last ?? "").lowercased().contains("_cda")
    }

    /// What to say of a folder that has an export_cda.xml but no export.xml.
    static func cdaHint(in folder: URL) -> String? {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.contains(where: isCDAName) ? "export_cda.xml, the CDA copy, is there; an export.xml belongs beside it" : nil
    }

    /// Refuses export_cda.xml (by name, or by its `<ClinicalDocument>` root), saying what it is and what to import.
    static func refuseCDA(_ url: URL) throws {
        var isCDA = isCDAName(url.lastPathComponent)
        // Only a regular file is looked into: opening a pipe would wait for its writer, and what was read would be lost.
        if !isCDA, (try? FileManager.default.attributesOfItem(atPath: url.path)[.type] as? FileAttributeType) == .typeRegular,
           let handle = FileHandle(forReadingAtPath: url.path) {
            let head = (try? handle.read(upToCount: 4096)) ?? Data()
            try? handle.close()
            isCDA = String(decoding: head, as: UTF8.self).contains("<ClinicalDocument")
        }
        guard isCDA else { return }
        throw HKError.invalidArgument(
            "\(url.lastPathComponent) is the export's HL7 CDA document: a second copy of part of the same data, written for "
                + "clinical systems. Everything in it is also in export.xml beside it, which is what `health import` reads: "
                + "import export.xml, its folder, or the export.zip the phone made")
    }
}
