package import Foundation
import GRDB

/// An element of an Apple Health export the model does not hold — an unknown record type (stores from before v36 and
/// v37 also keep the audiograms and vision prescriptions they imported so) — as written, so a later export can write it
/// back.
package struct ExportElement: Sendable, Hashable {
    package let name: String
    package let xml: String

    package init(name: String, xml: String) {
        self.name = name
        self.xml = xml
    }

    /// What makes a kept element the same one whatever export it comes from: its XML with every date written as the
    /// instant it names (an export writes local times at the UTC offset of the day it was made, so the same record
    /// exported in winter and in summer reads differently) and devices without their `0x…` pointer (new in every
    /// export).
    package var identity: String { Self.identity(of: xml) }

    package static func identity(of xml: String) -> String {
        var text = xml
        for (pattern, replace) in normalizations {
            let matches = pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).reversed()
            for match in matches {
                guard let range = Range(match.range, in: text), let replacement = replace(String(text[range])) else { continue }
                text.replaceSubrange(range, with: replacement)
            }
        }
        return text
    }

    /// Patterns and what a match becomes (nil: left as written).
    nonisolated(unsafe) private static let normalizations: [(NSRegularExpression, (String) -> String?)] = [
        // `2024-03-01 09:15:02 +0100` and the 2015 exports' `20240301091502+0100`, inside an attribute's quotes.
        (try! NSRegularExpression(pattern: #"(?<=")\d{4}-?\d{2}-?\d{2} ?\d{2}:?\d{2}:?\d{2} ?[+-]\d{4}(?=")"#), { instant(of: $0).map { "@\($0)" } }),
        (try! NSRegularExpression(pattern: #"HKDevice: 0x[0-9A-Fa-f]+"#), { _ in "HKDevice" }),
    ]

    /// Seconds since 1970 of an export date, either form.
    static func instant(of text: String) -> Int64? {
        ExportDates.parse(text).map { Int64($0.timeIntervalSince1970) }
    }
}

extension SampleStore {
    /// Keeps `elements` (each once: an element already kept is skipped); returns how many were new.
    func keepExportElements(_ elements: [ExportElement], at date: Double, in db: Database) throws -> Int {
        var kept = 0
        for element in elements {
            try db.execute(sql: "INSERT OR IGNORE INTO exportElement (name, xml, identity, importedAt) VALUES (?, ?, ?, ?)",
                           arguments: [element.name, element.xml, element.identity, date])
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

    /// The kept elements named `names`, with their row ids, oldest first.
    package func exportElements(named names: Set<String>) throws -> [(id: Int64, element: ExportElement)] {
        try database.read { db in
            try Row.fetchAll(db, sql: "SELECT id, name, xml FROM exportElement WHERE name IN (SELECT value FROM json_each(?)) ORDER BY id",
                             arguments: [String(decoding: try JSONEncoder().encode(names.sorted()), as: UTF8.self)])
                .map { (id: $0["id"], element: ExportElement(name: $0["name"], xml: $0["xml"])) }
        }
    }

    /// Stops keeping element `id` (once the model holds what it says).
    package func forgetExportElement(_ id: Int64) throws {
        try write { db in try db.execute(sql: "DELETE FROM exportElement WHERE id = ?", arguments: [id]) }
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
