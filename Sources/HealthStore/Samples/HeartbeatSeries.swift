package import Foundation
import GRDB
package import HealthModel

extension SampleStore {
    /// Stores the beats a heartbeat series carries (built by `HKHeartbeatSeriesBuilder` or read from an export), in order.
    static func insertBeats(of series: HKHeartbeatSeriesSample, sampleId: Int64, in db: Database) throws {
        guard let beats = series.beats else {
            throw HKError.invalidArgument("heartbeat series \(series.uuid) carries no beats; build it with HKHeartbeatSeriesBuilder")
        }
        let insert = try db.cachedStatement(sql: "INSERT INTO heartbeat (sampleId, position, offset, precededByGap) VALUES (?, ?, ?, ?)")
        for (position, beat) in beats.enumerated() {
            try insert.execute(arguments: [sampleId, position, beat.offset, beat.precededByGap])
        }
    }

    /// The beats of heartbeat series `uuid`, in order. The caller has checked that the series is visible to the reader.
    package func beats(of uuid: UUID) throws -> [HeartbeatSeriesBeat] {
        try database.read { db in
            try Row.fetchAll(db, sql: """
                SELECT offset, precededByGap FROM heartbeat WHERE sampleId = (SELECT id FROM sample WHERE uuid = ?) ORDER BY position
                """, arguments: [uuid.uuidString])
                .map { HeartbeatSeriesBeat(offset: $0["offset"], precededByGap: $0["precededByGap"]) }
        }
    }
}

extension SampleStore {
    /// The namespace of heartbeat series derived from heart-rate variability records (`WorkoutStorage.derivedUUID`).
    static let heartbeatNamespace = UUID(uuidString: "6B1F2C1E-8A52-4D3B-9E0F-3C5A7D9B1E42")!

    /// The beats of an export's heart-rate variability beat list (`<InstantaneousBeatsPerMinute bpm="58"
    /// time="11:26:02.34 AM"/>`…), as offsets from the record's start, or nil when the list holds none or a time it
    /// cannot read. The times are of day, in the export's local time, whose UTC offset the row no longer has; but every
    /// UTC offset is a whole number of quarter hours, so a beat's offset is its time of day less the start's, modulo 15
    /// minutes — exact for any record shorter than that (Apple Watch's last a minute or two). The list says nothing of
    /// gaps: no beat is marked as preceded by one.
    static func beats(fromVariabilityList xml: String, start: Double, end: Double) -> [HeartbeatSeriesBeat]? {
        let quarter = 900.0
        guard end - start < quarter else { return nil }
        var beats: [HeartbeatSeriesBeat] = []
        var rest = xml[...]
        while let open = rest.range(of: "time=\"") {
            rest = rest[open.upperBound...]
            guard let close = rest.firstIndex(of: "\""), let seconds = secondsOfDay(rest[..<close]) else { return nil }
            rest = rest[rest.index(after: close)...]
            var offset = (seconds - start).truncatingRemainder(dividingBy: quarter)
            if offset < 0 { offset += quarter }
            while let last = beats.last, offset <= last.offset { offset += quarter }  // past a quarter hour's turn
            beats.append(HeartbeatSeriesBeat(offset: (offset * 1000).rounded() / 1000, precededByGap: false))
        }
        guard let last = beats.last, last.offset <= end - start + 1 else { return nil }  // a beat outside its record
        return beats
    }

    /// Seconds since midnight of "11:26:02.34 AM" or "23:26:02.34".
    private static func secondsOfDay(_ text: Substring) -> Double? {
        var clock = text.trimmingCharacters(in: .whitespaces)
        var shift = 0.0
        let upper = clock.uppercased()
        if upper.hasSuffix("AM") || upper.hasSuffix("PM") {
            shift = upper.hasSuffix("PM") ? 12 * 3600 : 0
            clock = String(clock.dropLast(2)).trimmingCharacters(in: .whitespaces)
        }
        let parts = clock.split(separator: ":")
        guard parts.count == 3, var hours = Double(parts[0]), let minutes = Double(parts[1]), let seconds = Double(parts[2]),
              hours >= 0, hours < 24, minutes >= 0, minutes < 60, seconds >= 0, seconds < 61 else { return nil }
        if shift > 0 || upper.hasSuffix("AM") { if hours == 12 { hours = 0 } }
        return hours * 3600 + minutes * 60 + seconds + shift
    }
}
