import Foundation
import HealthModel

/// Writes a route's points as the GPX 1.1 file Apple Health exports put under `workout-routes/`: one track, one
/// segment, each point with elevation, UTC time and Apple's `speed`, `course`, `hAcc`, `vAcc` extensions, numbers
/// with six decimals. `GPXReader` reads it back point for point.
enum GPXWriter {
    static func data(name: String, locations: [CLLocation], exportDate: Date) -> Data {
        var text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="Apple Health Export" xmlns="http://www.topografix.com/GPX/1/1" \
            xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" \
            xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd">
              <metadata>
                <time>\(time(exportDate))</time>
              </metadata>
              <trk>
                <name>\(name)</name>
                <trkseg>

            """
        for point in locations {
            text += "      <trkpt lon=\"\(decimal(point.coordinate.longitude))\" lat=\"\(decimal(point.coordinate.latitude))\">"
            text += "<ele>\(decimal(point.altitude))</ele><time>\(time(point.timestamp))</time><extensions>"
            text += "<speed>\(decimal(point.speed))</speed><course>\(decimal(point.course))</course>"
            text += "<hAcc>\(decimal(point.horizontalAccuracy))</hAcc><vAcc>\(decimal(point.verticalAccuracy))</vAcc></extensions></trkpt>\n"
        }
        text += "    </trkseg>\n  </trk>\n</gpx>\n"
        return Data(text.utf8)
    }

    static func decimal(_ value: Double) -> String { String(format: "%.6f", value) }

    /// `2019-06-11T22:00:42Z`; fractional seconds only when there are some.
    static func time(_ date: Date) -> String {
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        let seconds = date.timeIntervalSince1970
        let whole = seconds.rounded(.down)
        let c = utc.dateComponents([.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: whole))
        var text = String(format: "%04d-%02d-%02dT%02d:%02d:%02d", c.year!, c.month!, c.day!, c.hour!, c.minute!, c.second!)
        if seconds != whole {
            let fraction = String(format: "%.6f", seconds - whole).dropFirst()   // ".250000"
            text += fraction.replacingOccurrences(of: "0+$", with: "", options: .regularExpression)
        }
        return text + "Z"
    }
}
