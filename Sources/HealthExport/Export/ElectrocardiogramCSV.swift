package import Foundation
package import HealthModel

/// Reads an export's `electrocardiograms/ecg_YYYY-MM-DD.csv` (the ECG app's recording, which export.xml does not
/// mention) into the `HKElectrocardiogram` it was in the person's store:
///
/// ```
/// Name,Jane Appleseed
/// Recorded Date,2023-03-04 20:55:07 -0500
/// Classification,Sinus Rhythm
/// Symptoms,
/// Software Version,1.90
/// Device,"Watch6,7"
/// Sample Rate,512 hertz
///
/// Lead,Lead I
/// Unit,µV
///
/// -107.825
/// …
/// ```
///
/// The start is the recorded date, the end the start plus the voltages' count over the sample rate. The
/// classification is the ECG app's English display text (`Sinus Rhythm`, `Atrial Fibrillation`, `Inconclusive`, `Poor
/// Recording`, `Heart Rate Over 120`/`150`, `Heart Rate Under 50`); other text (another language) is `.unrecognized`.
/// Symptoms listed are `.present`, none listed `.notSet` (the file does not tell "none" from "not asked"). The source
/// is the watch's ECG app, version as given; the device an Apple Watch of that hardware. Decimal commas (`-265,868`)
/// are read. The UUID comes from the file's bytes, so the same file imported again is the same sample.
package enum ElectrocardiogramCSV {
    package static func electrocardiogram(_ data: Data, path: String) throws -> HKElectrocardiogram {
        guard let text = String(data: data, encoding: .utf8) else { throw failure(path, "is not UTF-8 text") }
        var header: [String: String] = [:]
        var voltages: [Double] = []
        var inValues = false
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty { if header["Unit"] != nil { inValues = true }; continue }
            if inValues {
                guard let value = Double(line.replacingOccurrences(of: ",", with: ".")), value.isFinite else {
                    throw failure(path, "has \"\(line)\" where a voltage belongs (line \(voltages.count + 1) of the values)")
                }
                voltages.append(value)
                continue
            }
            guard let comma = line.firstIndex(of: ",") else { throw failure(path, "has a header line without a comma: \"\(line)\"") }
            var value = String(line[line.index(after: comma)...])
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
            header[String(line[..<comma])] = value
        }
        guard let recorded = header["Recorded Date"].flatMap(parseDate) else {
            throw failure(path, "has no readable Recorded Date (\(header["Recorded Date"] ?? "missing"))")
        }
        guard let rate = header["Sample Rate"].flatMap(parseHertz), rate > 0 else {
            throw failure(path, "has no readable Sample Rate (\(header["Sample Rate"] ?? "missing"))")
        }
        guard ["\u{00B5}V", "\u{03BC}V", "uV"].contains(header["Unit"] ?? "") else {
            throw failure(path, "gives voltages in \(header["Unit"] ?? "no unit"); microvolts (µV) were expected")
        }
        guard !voltages.isEmpty else { throw failure(path, "holds no voltages") }
        let watch = header["Device"].flatMap { $0.isEmpty ? nil : $0 }.map {
            HKDevice(name: nil, manufacturer: "Apple Inc.", model: "Watch", hardwareVersion: $0, firmwareVersion: nil, softwareVersion: nil,
                     localIdentifier: nil, udiDeviceIdentifier: nil)
        }
        let symptoms = (header["Symptoms"] ?? "").trimmingCharacters(in: .whitespaces)
        return HKElectrocardiogram(
            start: recorded, end: recorded.addingTimeInterval(Double(voltages.count) / rate), voltages: voltages,
            numberOfVoltageMeasurements: voltages.count, samplingFrequency: HKQuantity(unit: .hertz(), doubleValue: rate),
            classification: classification(header["Classification"] ?? ""), averageHeartRate: nil,
            symptomsStatus: symptoms.isEmpty ? .notSet : .present,
            uuid: ExportSources.stableUUID(data: data), metadata: nil,
            sourceRevision: ExportSources.revision(sourceName: "ECG", sourceVersion: header["Software Version"], device: watch),
            device: watch)
    }

    static func classification(_ text: String) -> HKElectrocardiogram.Classification {
        switch text.trimmingCharacters(in: .whitespaces).lowercased() {
        case "": .notSet
        case "sinus rhythm": .sinusRhythm
        case "atrial fibrillation": .atrialFibrillation
        case "heart rate under 50", "low heart rate": .inconclusiveLowHeartRate
        case "heart rate over 120", "heart rate over 150", "high heart rate": .inconclusiveHighHeartRate
        case "poor recording": .inconclusivePoorReading
        case "inconclusive": .inconclusiveOther
        default: .unrecognized
        }
    }

    /// "2023-03-04 20:55:07 -0500", as export.xml writes dates.
    private static func parseDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss Z"
        return formatter.date(from: text.trimmingCharacters(in: .whitespaces))
    }

    /// "512 hertz", "512.844 hertz", "512,844 Hz".
    private static func parseHertz(_ text: String) -> Double? {
        let number = text.trimmingCharacters(in: .whitespaces).prefix { $0.isNumber || $0 == "." || $0 == "," }
        return Double(number.replacingOccurrences(of: ",", with: "."))
    }

    private static func failure(_ path: String, _ reason: String) -> HKError {
        HKError.invalidArgument("\(path) \(reason)")
    }
}
