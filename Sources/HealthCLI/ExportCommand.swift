import ArgumentParser
import Foundation
import OpenHealthKit

/// `health export`: write the store out as an Apple Health export.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write the store as an Apple Health export: export.zip, or a folder (apple_health_export).",
        discussion: """
            The export has the form the Health app writes (export.xml with its DTD, clinical-records/*.json), so Apple \
            Health export tools read it, and importing it into an empty store gives back the same samples.
            """)

    @Argument(help: "Where to write: a path ending in .zip for export.zip, any other path for a folder. It must not exist yet.")
    var output: String

    @OptionGroup var store: StoreOptions

    func run() throws {
        let person = try store.person(creating: false)
        let started = Date()
        let bar = isatty(STDERR_FILENO) == 1 ? ProgressBar(started: started) : nil
        let result = try reporting {
            try person.exportHealthData(to: URL(fileURLWithPath: output)) { samples, total in bar?.show(samples: samples, total: total) }
        }
        bar?.finish()
        let seconds = Date().timeIntervalSince(started)
        for (type, count) in result.written.sorted(by: { $0.key < $1.key }) {
            print("\(String(count).padding(toLength: 9, withPad: " ", startingAt: 0)) \(type)")
        }
        if result.activitySummaries > 0 { print("\(String(result.activitySummaries).padding(toLength: 9, withPad: " ", startingAt: 0)) activity summaries") }
        if result.clinicalRecords > 0 { print("\(String(result.clinicalRecords).padding(toLength: 9, withPad: " ", startingAt: 0)) health records") }
        if result.routes > 0 { print("\(String(result.routes).padding(toLength: 9, withPad: " ", startingAt: 0)) workout routes (GPX)") }
        if result.keptElements > 0 {
            print("\(String(result.keptElements).padding(toLength: 9, withPad: " ", startingAt: 0)) elements kept as imported")
        }
        if result.files > 0 { print("\(String(result.files).padding(toLength: 9, withPad: " ", startingAt: 0)) files kept as imported") }
        print(String(format: "%d samples written to %@ in %.1f s (export.xml %.1f MB)", result.writtenTotal, result.url.path, seconds,
                     Double(result.bytes) / 1_000_000))
        for (type, count) in result.notExported.sorted(by: { $0.key < $1.key }) {
            print("Left out: \(count) × \(type)")
        }
    }
}
