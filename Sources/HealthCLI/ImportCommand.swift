import ArgumentParser
import Foundation
import HealthServer
import OpenHealthKit

/// `health import`: bring an Apple Health export into the store.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import an Apple Health export: export.zip, its unpacked folder, or export.xml; then show what the store holds.",
        discussion: """
            Samples keep their sources (your watch, your phone, apps by name). Importing the same export again, or a \
            newer one that overlaps it, adds nothing twice; an interrupted import can simply be run again. Without a \
            path, a small bundled sample is imported: two weeks of a synthetic person in Apple's export format.
            """)

    @Argument(help: "export.zip, the unpacked export folder, or export.xml (default: the bundled sample).")
    var path: String?

    @Flag(help: "Print the summary as JSON.")
    var json = false

    @OptionGroup var store: StoreOptions

    func run() async throws {
        let person = try store.person()
        let export: URL
        if let path {
            export = URL(fileURLWithPath: path)
        } else {
            guard let sample = Self.bundledSample else {
                throw CommandFailure("the bundled sample export is not beside this executable, or this user may not read it; give the path of an export")
            }
            export = sample
            if !json { print("No export given: importing the bundled sample (two weeks of a synthetic person, Apple's format).\n") }
        }
        let started = Date()
        let bar = isatty(STDERR_FILENO) == 1 && !json ? ProgressBar(started: started) : nil
        let result = try reporting {
            try person.importExport(at: export) { bytes, total, samples in bar?.show(bytes: bytes, total: total, samples: samples) }
        }
        bar?.finish()
        let seconds = Date().timeIntervalSince(started)
        if json { return try printJSON(result, seconds: seconds) }
        for (type, count) in result.read.sorted(by: { $0.key < $1.key }) {
            let added = result.added[type] ?? 0
            print("\(String(count).padding(toLength: 9, withPad: " ", startingAt: 0)) \(type)\(added == count ? "" : " (\(added) new)")")
        }
        if result.activitySummaries > 0 { print("\(String(result.activitySummaries).padding(toLength: 9, withPad: " ", startingAt: 0)) activity summaries") }
        if result.characteristics > 0 { print("\(String(result.characteristics).padding(toLength: 9, withPad: " ", startingAt: 0)) characteristics") }
        if let clinical = result.clinicalRecords {
            print("\(String(clinical.added + clinical.unchanged + clinical.updated).padding(toLength: 9, withPad: " ", startingAt: 0)) health records")
        }
        for (name, count) in result.kept.sorted(by: { $0.key < $1.key }) {
            print("\(String(count).padding(toLength: 9, withPad: " ", startingAt: 0)) \(name) element\(count == 1 ? "" : "s") kept as written")
        }
        if !result.keptFiles.isEmpty {
            print("\(String(result.keptFiles.count).padding(toLength: 9, withPad: " ", startingAt: 0)) files kept as they are (electrocardiograms)")
        }
        print(String(format: "%d samples added, %d already in the store, in %.1f s (%.1f MB/s)", result.addedTotal, result.alreadyStored, seconds,
                     Double(result.bytes) / 1_000_000 / max(seconds, 0.001)))
        if result.exactCopies > 0 {
            print("\(result.exactCopies) exact cop\(result.exactCopies == 1 ? "y" : "ies") in the export (a sample written twice, down to its "
                  + "creation date): stored once")
        }
        if let zone = result.timeZone, let setting = try? person.timeZoneSetting() {
            print(setting.byPerson
                  ? "Your days are counted in \(setting.zone.identifier), as you set (the export was recorded in \(zone.identifier))."
                  : "Your days are counted in \(zone.identifier), where the export's latest samples were recorded (health timezone to change).")
        }
        if !result.problemCounts.isEmpty {
            print("Left out:")
            for (reason, count) in result.problemCounts.sorted(by: { $0.value > $1.value }) {
                let first = result.problems.first { $0.reason == reason }.map { " (first at line \($0.line))" } ?? ""
                print("  \(count) × \(TerminalText(reason))\(first)")  // the reason quotes the file: escaped
            }
        }
        if result.addedTotal > 0 {
            // The Health app's charts read kept days: computed now, once, rather than at the first view of a year.
            let warming = Date()
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = try reporting { try person.timeZone() }
            calendar.firstWeekday = 2
            await ChartDays(person: person, database: person.database).warmUp(calendar: { calendar }, logger: nil)
            print(String(format: "The charts' days of the last year of each type kept for the Health app, in %.1f s.", Date().timeIntervalSince(warming)))
        }
        print("\nThe store now holds (health summary):")
        try SummaryCommand.show(person)
    }

    private func printJSON(_ result: ExportImport, seconds: Double) throws {
        let object: [String: Any] = [
            "read": result.read, "added": result.added, "alreadyStored": result.alreadyStored, "exactCopies": result.exactCopies,
            "timeZone": result.timeZone?.identifier as Any? ?? NSNull(),
            "activitySummaries": result.activitySummaries, "characteristics": result.characteristics,
            "healthRecords": result.clinicalRecords.map { ["added": $0.added, "updated": $0.updated, "unchanged": $0.unchanged,
                                                           "rejected": $0.rejected.count] } as Any? ?? NSNull(),
            "kept": result.kept, "keptFiles": result.keptFiles,
            "leftOut": result.problemCounts, "bytes": result.bytes, "seconds": seconds,
        ]
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .prettyPrinted])
        print(String(decoding: data, as: UTF8.self))
    }

    /// The sample export among the executable's resources. On Linux it is looked for beside the executable rather
    /// than through `Bundle.module`, which asks `Bundle.main`: swift-corelibs-foundation traps there when the user may
    /// not read a folder above the executable (and when the resources are missing, instead of saying so).
    static var bundledSample: URL? {
        #if canImport(Darwin)
        return Bundle.module.url(forResource: "sample-export", withExtension: "zip")
        #else
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let sample = URL(fileURLWithPath: executable).deletingLastPathComponent()
            .appendingPathComponent("OpenHealthKit_HealthCLI.resources/sample-export.zip")
        return FileManager.default.isReadableFile(atPath: sample.path) ? sample : nil
        #endif
    }
}
