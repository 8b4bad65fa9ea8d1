package import Foundation
package import HealthModel
package import HealthStore

/// Reads FHIR resources for import — a resource file, a `Bundle` (collection, searchset, transaction, batch…), a
/// folder of them, or an Apple Health export's `clinical-records/` with the `<ClinicalRecord>` rows of its
/// `export.xml` — into batches per provider, and reports every file and entry it could not use, with its position.
///
/// Rules: an entry of a Bundle without an id takes the one of its `fullUrl`; a record's provider is the export row's `sourceName` (or the provider the person names for plain files);
/// its received date is the row's `receivedDate` (or the import time); its FHIR version is the row's `fhirVersion`,
/// else the one the person gives, else what the resource's shape shows (DSTU2 or R4), else R4. In a Bundle, an entry
/// whose shape shows another release than the Bundle's is rejected. Valid resources that make no record (an
/// Observation without a supported category, an Encounter…) are counted as ignored, with the reason.
package struct ClinicalImportReader {
    /// A problem with one file or one entry.
    package struct Issue: Sendable, Hashable, CustomStringConvertible {
        /// The file, relative to the import root when there is one.
        package let file: String
        /// The entry's index in its Bundle (0-based), or nil for the file as a whole.
        package let entry: Int?
        package let resourceType: String?
        package let identifier: String?
        package let message: String

        package var description: String {
            var where_ = file
            if let entry { where_ += " entry \(entry)" }
            if let resourceType { where_ += " (\(resourceType)\(identifier.map { "/\($0)" } ?? ""))" }
            return "\(where_): \(message)"
        }
    }

    /// What was read: resources to store, grouped by provider, and what was left out.
    package struct Result: Sendable {
        package var batches: [(provider: ClinicalProvider, resources: [ClinicalResource])] = []
        package var ignored: [Issue] = []
        package var rejected: [Issue] = []
        package var files = 0
    }

    /// The provider for files that do not name one (plain FHIR JSON).
    let provider: ClinicalProvider?
    /// The FHIR version the person says the files are in, if any.
    let version: HKFHIRVersion?
    let now: Date

    package init(provider: ClinicalProvider?, version: HKFHIRVersion?, now: Date = Date()) {
        self.provider = provider
        self.version = version
        self.now = now
    }

    /// Reads `url` (a file or a folder, or an Apple Health export: its export.zip, its folder or its export.xml).
    package func read(_ url: URL) throws -> Result {
        var result = Result()
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else {
            throw HKError.invalidArgument("nothing to import at \(url.path)")
        }
        if !isFolder.boolValue {
            if url.lastPathComponent == "export.xml" || url.pathExtension.lowercased() == "zip" {
                try readExport(ExportLocation(url), into: &result)
            } else {
                read(file: url, name: url.lastPathComponent, export: nil, into: &result)
            }
            return result
        }
        for candidate in [url.appendingPathComponent("export.xml"), url.appendingPathComponent("apple_health_export/export.xml")]
        where FileManager.default.fileExists(atPath: candidate.path) {
            try readExport(ExportLocation(candidate), into: &result)
            return result
        }
        let files = (FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil)?.allObjects as? [URL] ?? [])
            .filter { $0.pathExtension.lowercased() == "json" && !$0.path.contains("__MACOSX") && !$0.lastPathComponent.hasPrefix(".") }
            .sorted { $0.path < $1.path }
        for file in files {
            read(file: file, name: String(file.path.dropFirst(url.path.count).drop(while: { $0 == "/" })), export: nil, into: &result)
        }
        return result
    }

    /// Reads the health records of an export whose `<ClinicalRecord>` rows were read already (by the export's import,
    /// in its one pass over export.xml): each row's resource file, from the folder or straight from the zip.
    package func read(rows: [ExportClinicalRow], of export: ExportLocation) -> Result {
        var result = Result()
        read(rows: rows, of: export, into: &result)
        return result
    }

    // MARK: - Files and bundles

    /// What an export row says of its resource file.
    struct ExportRow {
        let provider: ClinicalProvider
        let resourceType: String
        let identifier: String
        let sourceURL: URL?
        let version: HKFHIRVersion
        let received: Date
    }

    private func read(file: URL, name: String, export row: ExportRow?, into result: inout Result) {
        guard let data = try? Data(contentsOf: file) else {
            result.files += 1
            result.rejected.append(Issue(file: name, entry: nil, resourceType: nil, identifier: nil, message: "cannot be read"))
            return
        }
        read(data: data, name: name, export: row, into: &result)
    }

    private func read(data: Data, name: String, export row: ExportRow?, into result: inout Result) {
        result.files += 1
        let json: Any
        do {
            json = try JSONSerialization.jsonObject(with: data)
        } catch {
            let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? error.localizedDescription
            result.rejected.append(Issue(file: name, entry: nil, resourceType: nil, identifier: nil,
                                         message: "not valid JSON: \(detail)\(Self.position(in: data, detail: detail))"))
            return
        }
        guard let object = json as? [String: Any] else {
            result.rejected.append(Issue(file: name, entry: nil, resourceType: nil, identifier: nil,
                                         message: "not a FHIR resource: the file holds a JSON \(json is [Any] ? "array" : "value"), not an object"))
            return
        }
        if object["resourceType"] as? String == "Bundle" {
            readBundle(object, file: name, into: &result)
        } else {
            let release = row?.version.fhirRelease ?? version?.fhirRelease ?? FHIRResourceReader.detectRelease(object) ?? .r4
            take(object, file: name, entry: nil, release: release, row: row, into: &result)
        }
    }

    private func readBundle(_ bundle: [String: Any], file: String, into result: inout Result) {
        guard let entries = bundle["entry"] as? [[String: Any]] else {
            if bundle["entry"] != nil {
                result.rejected.append(Issue(file: file, entry: nil, resourceType: "Bundle", identifier: bundle["id"] as? String,
                                             message: "the Bundle's entry is not a list of objects"))
            }
            return
        }
        // Entries of transaction Bundles often carry no id, only a fullUrl (`urn:uuid:…` or `…/Type/id`): the id is
        // taken from it.
        let resources = entries.map { entry -> [String: Any]? in
            guard var resource = entry["resource"] as? [String: Any] else { return nil }
            if resource["id"] == nil, let fullUrl = entry["fullUrl"] as? String, !fullUrl.isEmpty {
                let id = fullUrl.hasPrefix("urn:uuid:") ? String(fullUrl.dropFirst(9)) : String(fullUrl.split(separator: "/").last ?? "")
                if !id.isEmpty { resource["id"] = id }
            }
            return resource
        }
        // The Bundle's release: the person's, else the first entry whose shape shows one.
        let bundleRelease = version?.fhirRelease ?? resources.lazy.compactMap { $0.flatMap(FHIRResourceReader.detectRelease) }.first ?? .r4
        for (index, resource) in resources.enumerated() {
            guard let resource else {
                result.rejected.append(Issue(file: file, entry: index, resourceType: nil, identifier: nil, message: "the entry has no resource"))
                continue
            }
            if let shown = FHIRResourceReader.detectRelease(resource), shown != bundleRelease {
                result.rejected.append(Issue(file: file, entry: index, resourceType: resource["resourceType"] as? String,
                                             identifier: resource["id"] as? String,
                                             message: "the entry is \(shown.rawValue) but the Bundle is \(bundleRelease.rawValue); a Bundle holds one release"))
                continue
            }
            take(resource, file: file, entry: index, release: bundleRelease, row: nil, into: &result)
        }
    }

    /// Classifies one resource and files it under its provider, or reports why not.
    private func take(_ resource: [String: Any], file: String, entry: Int?, release: HKFHIRRelease, row: ExportRow?, into result: inout Result) {
        let type = resource["resourceType"] as? String, id = resource["id"] as? String
        func issue(_ message: String) -> Issue { Issue(file: file, entry: entry, resourceType: type, identifier: id, message: message) }
        do {
            let outcome = try FHIRResourceReader.classify(resource, release: release)
            if case .ignored(let reason) = outcome { return result.ignored.append(issue(reason)) }
            if let row, row.resourceType != type || row.identifier != id {
                return result.rejected.append(issue("export.xml says this file is \(row.resourceType)/\(row.identifier)"))
            }
            guard let provider = row?.provider ?? provider else {
                return result.rejected.append(issue("no provider: name the institution these records come from"))
            }
            let data = try JSONSerialization.data(withJSONObject: resource, options: [.sortedKeys])
            let version = row?.version ?? version ?? (release == .dstu2 ? .primaryDSTU2() : .primaryR4())
            let sourceURL = row?.sourceURL ?? provider.url?.appendingPathComponent(type!).appendingPathComponent(id!)
            let stored = ClinicalResource(resourceType: type!, identifier: id!, version: version, data: data, sourceURL: sourceURL,
                                          received: row?.received ?? now, outcome: outcome)
            if let index = result.batches.firstIndex(where: { $0.provider == provider }) {
                result.batches[index].resources.append(stored)
            } else {
                result.batches.append((provider, [stored]))
            }
        } catch let error as HKError {
            result.rejected.append(issue(error.message))
        } catch {
            result.rejected.append(issue("\(error)"))
        }
    }

    /// " (line L, column C)" for a JSON error that names a character offset, or the last line for one at the end.
    static func position(in data: Data, detail: String) -> String {
        let offset: Int
        if let range = detail.range(of: "character "), let number = Int(detail[range.upperBound...].prefix(while: \.isNumber)) {
            offset = min(number, data.count)
        } else if detail.lowercased().contains("end of file") {
            offset = data.count
        } else {
            return ""
        }
        var line = 1, column = 1
        for byte in data.prefix(offset) {
            if byte == 0x0A { line += 1; column = 1 } else { column += 1 }
        }
        return " (line \(line), column \(column))"
    }

    // MARK: - Apple Health export

    /// Reads the `<ClinicalRecord>` rows of an export.xml and the resource files they point to.
    private func readExport(_ export: ExportLocation, into result: inout Result) throws {
        var rows: [ExportClinicalRow] = []
        try export.scanner().scan(names: ["ClinicalRecord"]) { tag in
            rows.append(ExportClinicalRow(attributes: tag.attributes, line: tag.line))
        } problem: { line, message in
            result.rejected.append(Issue(file: "export.xml line \(line)", entry: nil, resourceType: nil, identifier: nil, message: message))
        }
        read(rows: rows, of: export, into: &result)
    }

    private func read(rows exportRows: [ExportClinicalRow], of export: ExportLocation, into result: inout Result) {
        let required = ["type", "identifier", "sourceName", "fhirVersion", "receivedDate", "resourceFilePath"]
        var rows: [ExportClinicalRow] = []
        for row in exportRows {
            let missing = required.filter { (row.attributes[$0] ?? "").isEmpty }
            guard missing.isEmpty else {
                result.rejected.append(Issue(file: "export.xml line \(row.line)", entry: nil, resourceType: row.attributes["type"],
                                             identifier: row.attributes["identifier"],
                                             message: "a ClinicalRecord lacks \(missing.joined(separator: ", "))"))
                continue
            }
            rows.append(row)
        }
        var providerURLs: [String: URL] = [:]
        for row in rows {
            if providerURLs[row.sourceName] == nil, let url = row.sourceURL { providerURLs[row.sourceName] = Self.baseURL(of: url, type: row.type) }
        }
        for row in rows {
            let path = row.resourceFilePath.drop(while: { $0 == "/" })
            let name = "\(path) (export.xml line \(row.line))"
            guard let received = ExportDates.parse(row.receivedDate) else {
                result.rejected.append(Issue(file: name, entry: nil, resourceType: row.type, identifier: row.identifier,
                                             message: "receivedDate \"\(row.receivedDate)\" is not a date of the export's form"))
                continue
            }
            let version: HKFHIRVersion
            do { version = try HKFHIRVersion(fromVersionString: row.fhirVersion) } catch {
                result.rejected.append(Issue(file: name, entry: nil, resourceType: row.type, identifier: row.identifier,
                                             message: "fhirVersion \"\(row.fhirVersion)\" is not a FHIR version"))
                continue
            }
            let data: Data
            do {
                guard let found = try export.file(String(path)) else {
                    result.rejected.append(Issue(file: name, entry: nil, resourceType: row.type, identifier: row.identifier,
                                                 message: "the resource file is missing"))
                    continue
                }
                data = found
            } catch {
                result.rejected.append(Issue(file: name, entry: nil, resourceType: row.type, identifier: row.identifier,
                                             message: (error as? HKError)?.message ?? "cannot be read"))
                continue
            }
            let exportRow = ExportRow(provider: ClinicalProvider(name: row.sourceName, url: providerURLs[row.sourceName]),
                                      resourceType: row.type, identifier: row.identifier, sourceURL: row.sourceURL,
                                      version: version, received: received)
            read(data: data, name: String(path), export: exportRow, into: &result)
        }
    }

    /// The FHIR base of a resource URL: `https://host/api/FHIR/R4/Observation/12` → `https://host/api/FHIR/R4`.
    static func baseURL(of url: URL, type: String) -> URL {
        var base = url
        if base.lastPathComponent != type { base.deleteLastPathComponent() }
        if base.lastPathComponent == type { base.deleteLastPathComponent() }
        return base
    }

}

/// One `<ClinicalRecord>` row of export.xml: the health record's provider, FHIR version, received date, and the path
/// of its resource file (`/clinical-records/Observation-….json`).
package struct ExportClinicalRow: Sendable {
    let attributes: [String: String]
    let line: Int

    package init(attributes: [String: String], line: Int) {
        self.attributes = attributes
        self.line = line
    }

    var type: String { attributes["type"] ?? "" }
    var identifier: String { attributes["identifier"] ?? "" }
    var sourceName: String { attributes["sourceName"] ?? "" }
    var sourceURL: URL? { attributes["sourceURL"].flatMap(URL.init(string:)) }
    var fhirVersion: String { attributes["fhirVersion"] ?? "" }
    var receivedDate: String { attributes["receivedDate"] ?? "" }
    var resourceFilePath: String { attributes["resourceFilePath"] ?? "" }
}
