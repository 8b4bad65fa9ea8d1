import Foundation
import HealthModel
import Logging
import OpenHealthKit
import Synchronization

/// The web app's import of an Apple Health export: one at a time, received (streamed to a private temporary file),
/// then imported in the background while its progress is reported (``phase``; the page's events). A second import
/// while one runs is refused, saying how far the first has come.
final class StoreImport: Sendable {
    enum Phase: Sendable {
        case idle
        case receiving(bytes: Int)
        case importing(name: String, bytes: Int, total: Int, samples: Int)
        case finished(Summary)
        case failed(name: String, message: String)

        var isRunning: Bool {
            switch self {
            case .receiving, .importing: true
            case .idle, .finished, .failed: false
            }
        }
    }

    /// What an import did, for the person.
    struct Summary: Sendable {
        var name: String
        var added: Int
        var alreadyStored: Int
        var problems: Int
        var kept: Int
        var seconds: Double
    }

    private let state = Mutex(Phase.idle)
    private let logger: Logger

    init(logger: Logger) { self.logger = logger }

    var phase: Phase { state.withLock { $0 } }

    /// Takes the importer for a new import; nil (and the phase that holds it) when one runs.
    func begin() -> Phase? {
        state.withLock { phase in
            if phase.isRunning { return phase }
            phase = .receiving(bytes: 0)
            return nil
        }
    }

    func received(_ bytes: Int) { state.withLock { $0 = .receiving(bytes: bytes) } }

    /// The upload did not arrive whole: the importer is free again, and says why.
    func failed(_ message: String, name: String = "the upload") {
        state.withLock { $0 = .failed(name: name, message: message) }
    }

    /// Imports `file` in the background, reporting progress, and removes `removing` (the upload's folder) when done with
    /// it; then keeps the new data's chart days (`afterwards`).
    func run(_ file: URL, name: String, person: HealthPerson, removing: URL? = nil, afterwards: (@Sendable () async -> Void)? = nil) {
        state.withLock { $0 = .importing(name: name, bytes: 0, total: 0, samples: 0) }
        let logger = logger
        Task.detached { [self] in
            let started = ContinuousClock.now
            defer { if let removing { try? FileManager.default.removeItem(at: removing) } }
            do {
                let result = try person.importExport(at: file) { bytes, total, samples in
                    self.state.withLock { $0 = .importing(name: name, bytes: bytes, total: total, samples: samples) }
                }
                let elapsed = ContinuousClock.now - started
                let summary = Summary(name: name, added: result.addedTotal, alreadyStored: result.alreadyStored + result.exactCopies,
                                      problems: result.problems.count, kept: result.kept.values.reduce(0, +),
                                      seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
                self.state.withLock { $0 = .finished(summary) }
                logger.info("export imported", metadata: ["added": "\(summary.added)", "name": "\(name)"])
                await afterwards?()
            } catch let error as HKError {
                self.state.withLock { $0 = .failed(name: name, message: error.message) }
            } catch {
                logger.error("an import failed", metadata: ["error": "\(error)"])
                self.state.withLock { $0 = .failed(name: name, message: "the export could not be read (\(error))") }
            }
        }
    }

    /// The phase as the page's events carry it (JSON).
    var json: String {
        var object: [String: Any]
        switch phase {
        case .idle: object = ["phase": "idle"]
        case .receiving(let bytes): object = ["phase": "receiving", "bytes": bytes]
        case .importing(let name, let bytes, let total, let samples):
            object = ["phase": "importing", "name": name, "bytes": bytes, "total": total, "samples": samples]
        case .finished(let summary):
            object = ["phase": "finished", "name": summary.name, "added": summary.added, "alreadyStored": summary.alreadyStored,
                      "problems": summary.problems, "message": Self.describe(summary)]
        case .failed(let name, let message): object = ["phase": "failed", "name": name, "message": message]
        }
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    static func describe(_ summary: Summary) -> String {
        var text = "\(summary.name): \(summary.added.formatted()) sample\(summary.added == 1 ? "" : "s") added"
        if summary.alreadyStored > 0 { text += ", \(summary.alreadyStored.formatted()) already in the store" }
        if summary.kept > 0 { text += ", \(summary.kept.formatted()) kept as written" }
        if summary.problems > 0 { text += ", \(summary.problems.formatted()) element\(summary.problems == 1 ? "" : "s") not understood" }
        return text + String(format: " (%.1f s).", summary.seconds)
    }
}
