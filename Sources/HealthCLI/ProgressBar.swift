import Foundation
import Synchronization

/// A one-line progress bar on standard error for `health import` and `health export`: percent done, the rates and
/// the time left, redrawn at most five times a second.
final class ProgressBar: Sendable {
    private let started: Date
    private let lastDrawn = Mutex<Date>(.distantPast)

    init(started: Date) {
        self.started = started
    }

    /// Import: bytes of export.xml read of `total`, and samples read.
    func show(bytes: Int, total: Int, samples: Int) {
        draw(done: bytes, total: total) { elapsed in
            String(format: "%.1f MB/s  %.0f samples/s", Double(bytes) / 1_000_000 / elapsed, Double(samples) / elapsed)
        }
    }

    /// Export: samples written of `total`.
    func show(samples: Int, total: Int) {
        draw(done: samples, total: total) { elapsed in String(format: "%.0f samples/s", Double(samples) / elapsed) }
    }

    private func draw(done: Int, total: Int, rates: (Double) -> String) {
        let now = Date()
        guard lastDrawn.withLock({ last in
            guard now.timeIntervalSince(last) >= 0.2 || done >= total else { return false }
            last = now
            return true
        }) else { return }
        let elapsed = max(now.timeIntervalSince(started), 0.001)
        let fraction = total > 0 ? min(Double(done) / Double(total), 1) : 1
        let filled = Int(fraction * 30)
        let left = fraction > 0 ? elapsed / fraction - elapsed : 0
        let line = String(format: "\r[%@%@] %3.0f%%  %@  %d:%02d left ", String(repeating: "#", count: filled),
                          String(repeating: ".", count: 30 - filled), fraction * 100, rates(elapsed), Int(left) / 60, Int(left) % 60)
        FileHandle.standardError.write(Data(line.utf8))
    }

    func finish() {
        FileHandle.standardError.write(Data("\n".utf8))
    }
}
