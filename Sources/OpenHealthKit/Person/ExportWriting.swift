public import Foundation
import HealthExport
import HealthStore

/// What an export of the person's store wrote.
public struct HealthDataExport: Sendable {
    /// The folder or `export.zip` written.
    public var url: URL
    /// Records, Correlations and Workouts written, by type identifier (a correlation's members count under their own
    /// type, once).
    public var written: [String: Int] = [:]
    public var activitySummaries = 0
    /// ClinicalRecord rows (health records and the FHIR Patients beside them), each with its JSON file.
    public var clinicalRecords = 0
    /// Workout routes written, each as a GPX file under `workout-routes/`.
    public var routes = 0
    /// Elements an import kept as written (unknown record types, audiograms…) and files it kept (electrocardiograms),
    /// written back.
    public var keptElements = 0
    public var files = 0
    /// Samples left out, by type identifier: CDA documents (the format has no element for them) and routes that belong
    /// to no workout.
    public var notExported: [String: Int] = [:]
    /// Bytes of export.xml.
    public var bytes = 0

    public var writtenTotal: Int { written.values.reduce(0, +) }
}

extension HealthPerson {
    /// Writes the whole store as an Apple Health export: a folder (`apple_health_export/` with `export.xml` and
    /// `clinical-records/`) or, when `url` ends in `.zip`, an `export.zip` holding that folder. The file has the form
    /// the Health app writes (Export Version 14, its DTD), so this package, Apple-export tools, and the person's other
    /// software read it; importing it into an empty store gives back the same samples, with the same UUIDs.
    ///
    /// Memory stays flat however large the store: samples are read in batches from one snapshot of the store and
    /// written as they come. Each sample's dates are in its `HKTimeZone` when it has one, else in `timeZone`.
    /// `progress` hears the samples written so far and how many there are.
    ///
    /// ```swift
    /// let person = try HealthPerson(storeDirectory: URL(fileURLWithPath: "health-store"))
    /// let export = try person.exportHealthData(to: URL(fileURLWithPath: "export.zip"))
    /// print(export.writtenTotal, "samples in", export.url.path)
    /// ```
    ///
    /// Fails with `errorInvalidArgument` when `url` already exists (nothing is overwritten) or cannot be written.
    public func exportHealthData(to url: URL, timeZone: TimeZone = .current,
                                 progress: (@Sendable (_ samples: Int, _ total: Int) -> Void)? = nil) throws -> HealthDataExport {
        let zipped = url.pathExtension.lowercased() == "zip"
        guard !FileManager.default.fileExists(atPath: url.path) else {
            throw HKError.invalidArgument("\(url.path) already exists; export to a new \(zipped ? "file" : "folder")")
        }
        do { try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true) } catch {
            throw HKError.invalidArgument("cannot create the folder \(url.deletingLastPathComponent().path): \(FileProblem(error))")
        }
        let temporary = FileManager.default.temporaryDirectory
        let staging = temporary.appendingPathComponent("ohk-export-\(UUID().uuidString)")
        let folder = zipped ? staging.appendingPathComponent("apple_health_export") : url
        defer { try? FileManager.default.removeItem(at: staging) }
        // A zip is made in the temporary folder first: one that cannot be used is said so, by name.
        if zipped {
            do { try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: false) } catch {
                throw HKError.invalidArgument("cannot make a working folder in the temporary folder \(temporary.path) (TMPDIR): \(FileProblem(error))")
            }
        }
        do {
            let result = try writeExport(to: folder, timeZone: timeZone, progress: progress)
            if zipped { try ExportZip.pack(folder, into: url) }
            return HealthDataExport(url: url, written: result.summary.written, activitySummaries: result.summary.activitySummaries,
                                    clinicalRecords: result.summary.clinicalRecords, routes: result.summary.routes,
                                    keptElements: result.summary.keptElements, files: result.summary.files,
                                    notExported: result.counts.notExported, bytes: result.summary.bytes)
        } catch {
            if !zipped { try? FileManager.default.removeItem(at: url) }
            throw error
        }
    }

    private func writeExport(to folder: URL, timeZone: TimeZone, progress: (@Sendable (Int, Int) -> Void)?) throws
        -> (summary: ExportWriter.Summary, counts: ExportRows.Counts) {
        let writer = try ExportWriter(folder: folder, timeZone: timeZone)
        let rows = ExportRows(database: database)
        let total = try rows.sampleCount()
        var done = 0
        let counts = try rows.read(into: ExportRows.Sink(characteristics: { characteristics in
            try writer.writeMe(characteristics)
        }, samples: { samples in
            try writer.write(samples: samples)
            done += samples.count
            progress?(done, total)
        }, workouts: { workouts in
            try writer.write(workouts: workouts)
            done += workouts.count
            progress?(done, total)
        }, activitySummaries: { summaries in
            try writer.write(activitySummaries: summaries)
        }, clinicalResources: { resources in
            try writer.write(clinicalResources: resources)
        }, medications: { medications in
            try writer.write(medications: medications)
        }))
        // What the import kept as written goes back as it came.
        try writer.write(keptElements: sampleStore.exportElements())
        for path in try sampleStore.exportFilePaths() {
            if let data = try sampleStore.exportFile(at: path) { try writer.write(file: path, data: data) }
        }
        return (try writer.finish(), counts)
    }
}
