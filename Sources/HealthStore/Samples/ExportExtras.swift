package import Foundation
import GRDB

/// An element of an Apple Health export the model does not hold — an unknown record type, an audiogram, a vision
/// prescription — as written, so a later export can write it back.
package struct ExportElement: Sendable, Hashable {
    package let name: String
    package let xml: String

    package init(name: String, xml: String) {
        self.name = name
        self.xml = xml
    }
}

extension SampleStore {
    /// Keeps `elements` (each once: an element already kept is skipped); returns how many were new.
    func keepExportElements(_ elements: [ExportElement], at date: Double, in db: Database) throws -> Int {
        var kept = 0
        for element in elements {
            try db.execute(sql: "INSERT OR IGNORE INTO exportElement (name, xml, importedAt) VALUES (?, ?, ?)",
                           arguments: [element.name, element.xml, date])
            kept += db.changesCount
        }
        return kept
    }

    /// Keeps a sidecar file of an export (`electrocardiograms/ecg_2023-03-04.csv`), replacing one kept at the same
    /// path; returns whether it was new or changed.
    package func keepExportFile(path: String, data: Data) throws -> Bool {
        try write { db in
            if try Data.fetchOne(db, sql: "SELECT data FROM exportFile WHERE path = ?", arguments: [path]) == data { return false }
            try db.execute(sql: "INSERT OR REPLACE INTO exportFile (path, data, importedAt) VALUES (?, ?, ?)",
                           arguments: [path, data, Date().timeIntervalSinceReferenceDate])
            return true
        }
    }

    /// The kept elements, in the order they were first imported.
    package func exportElements() throws -> [ExportElement] {
        try database.read { db in
            try Row.fetchAll(db, sql: "SELECT name, xml FROM exportElement ORDER BY id").map { ExportElement(name: $0["name"], xml: $0["xml"]) }
        }
    }

    /// The kept sidecar files' paths, sorted.
    package func exportFilePaths() throws -> [String] {
        try database.read { db in try String.fetchAll(db, sql: "SELECT path FROM exportFile ORDER BY path") }
    }

    /// A kept sidecar file's bytes.
    package func exportFile(at path: String) throws -> Data? {
        try database.read { db in try Data.fetchOne(db, sql: "SELECT data FROM exportFile WHERE path = ?", arguments: [path]) }
    }

    /// The kept child elements of samples (by sample UUID) among `uuids`.
    package func sampleExtras(forUUIDs uuids: [String]) throws -> [String: String] {
        guard !uuids.isEmpty else { return [:] }
        return try database.read { db in
            var extras: [String: String] = [:]
            for row in try Row.fetchAll(db, sql: """
                SELECT sample.uuid, sampleExtra.xml FROM sampleExtra JOIN sample ON sample.id = sampleExtra.sampleId
                WHERE sample.uuid IN (SELECT value FROM json_each(?))
                """, arguments: ["[" + uuids.map { "\"\($0)\"" }.joined(separator: ",") + "]"]) {
                extras[row[0]] = row[1]
            }
            return extras
        }
    }
}
