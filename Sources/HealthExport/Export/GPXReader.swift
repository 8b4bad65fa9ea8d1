package import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
package import HealthModel
import HealthStore

/// Reads the track points of a GPX 1.1 file as an Apple Health export writes them under `workout-routes/`:
/// `<trkpt lon lat><ele/><time/><extensions><speed/><course/><hAcc/><vAcc/></extensions></trkpt>`, each one a
/// `CLLocation`. (These files have no DTD, so Foundation's `XMLParser` reads them safely.)
package enum GPXReader {
    /// The points of `url` in file order; an error naming the file and line when it is not readable GPX.
    package static func locations(at url: URL) throws -> [CLLocation] {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw HKError.invalidArgument("cannot read the route file \(url.lastPathComponent)")
        }
        return try locations(in: data, name: url.lastPathComponent)
    }

    /// The points of a GPX file's bytes (`name` for messages).
    package static func locations(in data: Data, name: String) throws -> [CLLocation] {
        let url = URL(fileURLWithPath: name)
        let parser = XMLParser(data: data)
        let delegate = Delegate()
        parser.delegate = delegate
        guard parser.parse(), parser.parserError == nil else {
            throw HKError.invalidArgument("the route file \(url.lastPathComponent) is not valid GPX (line \(parser.lineNumber))")
        }
        if let problem = delegate.problem { throw HKError.invalidArgument("the route file \(url.lastPathComponent): \(problem)") }
        return delegate.locations
    }

    /// `2019-06-11T22:00:42Z` (fractional seconds allowed), as seconds since 1970; nil for a time no clock shows
    /// (30 February, 24:00, second 60), which a calendar would silently move to another day.
    static func parseTime(_ text: String) -> Date? {
        let parts = text.split(omittingEmptySubsequences: false, whereSeparator: { "-T:Z".contains($0) })
        guard parts.count == 7, text.hasSuffix("Z"), parts[6].isEmpty, parts[0].count == 4, let year = Int(parts[0]),
              let month = Int(parts[1]), let day = Int(parts[2]), let hour = Int(parts[3]), let minute = Int(parts[4]),
              let second = Double(parts[5]), second >= 0, second < 60,
              let whole = ExportDates.secondsSince1970(year: year, month: month, day: day, hour: hour, minute: minute, second: 0, offset: 0)
        else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(whole) + second)
    }

    private final class Delegate: NSObject, XMLParserDelegate {
        var locations: [CLLocation] = []
        var problem: String?
        private var point: (latitude: Double, longitude: Double)?
        private var values: [String: String] = [:]
        private var text = ""

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            text = ""
            guard name == "trkpt" else { return }
            guard let latitude = attributes["lat"].flatMap(Double.init), let longitude = attributes["lon"].flatMap(Double.init) else {
                problem = problem ?? "a track point without lat and lon (line \(parser.lineNumber))"
                return
            }
            point = (latitude, longitude)
            values = [:]
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            guard let open = point else { return }
            if name != "trkpt" {
                values[name] = text.trimmingCharacters(in: .whitespacesAndNewlines)
                return
            }
            point = nil
            guard let time = values["time"].flatMap(GPXReader.parseTime) else {
                problem = problem ?? "a track point without a possible time (line \(parser.lineNumber))"
                return
            }
            // What a route's store refuses (its CHECK would stop the whole import): a point off the globe, or NaN.
            guard (-90...90).contains(open.latitude), (-180...180).contains(open.longitude) else {
                problem = problem ?? "a track point at latitude \(open.latitude), longitude \(open.longitude) (line \(parser.lineNumber))"
                return
            }
            if let key = ["ele", "hAcc", "vAcc", "course", "speed"].first(where: { key in values[key].map { Double($0)?.isFinite != true } ?? false }) {
                problem = problem ?? "a track point whose \(key) is not a finite number (line \(parser.lineNumber))"
                return
            }
            func number(_ key: String, _ missing: Double) -> Double { values[key].flatMap(Double.init) ?? missing }
            locations.append(CLLocation(coordinate: CLLocationCoordinate2D(latitude: open.latitude, longitude: open.longitude),
                                        altitude: number("ele", 0), horizontalAccuracy: number("hAcc", 0), verticalAccuracy: number("vAcc", -1),
                                        course: number("course", -1), speed: number("speed", -1), timestamp: time))
        }
    }
}
