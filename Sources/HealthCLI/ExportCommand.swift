import ArgumentParser
import Foundation
import OpenHealthKit
import Synchronization

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
        let person = try store.person()
        let started = Date()
        let bar = isatty(STDERR_FILENO) == 1 ? ExportProgressBar(started: started) : nil
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

/// A one-line progress bar on standard error: percent of the samples written, samples/s and time left.
final class ExportProgressBar: Sendable {
    private let started: Date
    private let lastDrawn = Mutex<Date>(.distantPast)

    init(started: Date) {
        self.started = started
    }

    func show(samples: Int, total: Int) {
        let now = Date()
        guard lastDrawn.withLock({ last in
            guard now.timeIntervalSince(last) >= 0.2 || samples >= total else { return false }
            last = now
            return true
        }) else { return }
        let elapsed = max(now.timeIntervalSince(started), 0.001)
        let fraction = total > 0 ? min(Double(samples) / Double(total), 1) : 1
        let filled = Int(fraction * 30)
        let left = fraction > 0 ? elapsed / fraction - elapsed : 0
        let line = String(format: "\r[%@%@] %3.0f%%  %.0f samples/s  %d:%02d left ", String(repeating: "#", count: filled),
                          String(repeating: ".", count: 30 - filled), fraction * 100, Double(samples) / elapsed, Int(left) / 60, Int(left) % 60)
        FileHandle.standardError.write(Data(line.utf8))
    }

    func finish() {
        FileHandle.standardError.write(Data("\n".utf8))
    }
}
