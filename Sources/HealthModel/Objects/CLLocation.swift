#if canImport(CoreLocation)
@_exported public import CoreLocation
#else
public import Foundation

/// Degrees of latitude or longitude (CoreLocation's name), for platforms without CoreLocation.
public typealias CLLocationDegrees = Double
/// Meters.
public typealias CLLocationDistance = Double
/// Meters of uncertainty; negative when unknown.
public typealias CLLocationAccuracy = Double
/// Degrees from true north; negative when unknown.
public typealias CLLocationDirection = Double
/// Meters per second; negative when unknown.
public typealias CLLocationSpeed = Double

/// A latitude and longitude in degrees (WGS 84), as CoreLocation has it.
public struct CLLocationCoordinate2D: Sendable, Hashable {
    public var latitude: CLLocationDegrees
    public var longitude: CLLocationDegrees

    public init() { self.init(latitude: 0, longitude: 0) }

    public init(latitude: CLLocationDegrees, longitude: CLLocationDegrees) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// One point of a workout route: where, how high, how sure, which way, how fast and when — CoreLocation's `CLLocation`
/// for platforms without CoreLocation, with its initializer and properties, so route code compiles on both.
///
/// ```swift
/// let point = CLLocation(coordinate: CLLocationCoordinate2D(latitude: 37.78, longitude: -122.40), altitude: 4,
///                        horizontalAccuracy: 8, verticalAccuracy: 6, course: 206, speed: 0.18, timestamp: Date())
/// ```
///
/// `NSSecureCoding` (every value, exactly) and `NSCopying` (the location itself), as CoreLocation's.
public final class CLLocation: NSObject, NSSecureCoding, NSCopying, Sendable {
    public let coordinate: CLLocationCoordinate2D
    public let altitude: CLLocationDistance
    public let horizontalAccuracy: CLLocationAccuracy
    public let verticalAccuracy: CLLocationAccuracy
    public let course: CLLocationDirection
    public let speed: CLLocationSpeed
    public let timestamp: Date

    public init(coordinate: CLLocationCoordinate2D, altitude: CLLocationDistance, horizontalAccuracy: CLLocationAccuracy,
                verticalAccuracy: CLLocationAccuracy, course: CLLocationDirection, speed: CLLocationSpeed, timestamp: Date) {
        self.coordinate = coordinate
        self.altitude = altitude
        self.horizontalAccuracy = horizontalAccuracy
        self.verticalAccuracy = verticalAccuracy
        self.course = course
        self.speed = speed
        self.timestamp = timestamp
    }

    /// A location known only by its coordinate, now.
    public convenience init(latitude: CLLocationDegrees, longitude: CLLocationDegrees) {
        self.init(coordinate: CLLocationCoordinate2D(latitude: latitude, longitude: longitude), altitude: 0, horizontalAccuracy: 0,
                  verticalAccuracy: -1, course: -1, speed: -1, timestamp: Date())
    }

    // MARK: NSSecureCoding, NSCopying

    private enum Key {
        static let latitude = "latitude"
        static let longitude = "longitude"
        static let altitude = "altitude"
        static let horizontalAccuracy = "horizontalAccuracy"
        static let verticalAccuracy = "verticalAccuracy"
        static let course = "course"
        static let speed = "speed"
        static let timestamp = "timestamp"
    }

    public static var supportsSecureCoding: Bool { true }

    public func encode(with coder: NSCoder) {
        coder.encode(coordinate.latitude, forKey: Key.latitude)
        coder.encode(coordinate.longitude, forKey: Key.longitude)
        coder.encode(altitude, forKey: Key.altitude)
        coder.encode(horizontalAccuracy, forKey: Key.horizontalAccuracy)
        coder.encode(verticalAccuracy, forKey: Key.verticalAccuracy)
        coder.encode(course, forKey: Key.course)
        coder.encode(speed, forKey: Key.speed)
        coder.encodeDate(timestamp, forKey: Key.timestamp)
    }

    public required convenience init?(coder: NSCoder) {
        let keys = [Key.latitude, Key.longitude, Key.altitude, Key.horizontalAccuracy, Key.verticalAccuracy, Key.course, Key.speed]
        guard case let (v, timestamp)? = coder.decodeValid("CLLocation", {
            (try keys.map { try coder.decodeRequiredDouble(forKey: $0) }, try coder.decodeDate(forKey: Key.timestamp))
        }) else { return nil }
        self.init(coordinate: CLLocationCoordinate2D(latitude: v[0], longitude: v[1]), altitude: v[2], horizontalAccuracy: v[3],
                  verticalAccuracy: v[4], course: v[5], speed: v[6], timestamp: timestamp)
    }

    /// Locations are immutable: a copy is the location itself.
    public func copy(with zone: NSZone? = nil) -> Any { self }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let rhs = object as? CLLocation else { return false }
        let lhs = self
        return lhs.coordinate == rhs.coordinate && lhs.altitude == rhs.altitude && lhs.horizontalAccuracy == rhs.horizontalAccuracy
            && lhs.verticalAccuracy == rhs.verticalAccuracy && lhs.course == rhs.course && lhs.speed == rhs.speed && lhs.timestamp == rhs.timestamp
    }

    public override var hash: Int {
        var hasher = Hasher()
        hasher.combine(coordinate)
        hasher.combine(timestamp)
        return hasher.finalize()
    }

    public override var description: String {
        "<\(coordinate.latitude),\(coordinate.longitude)> +/- \(horizontalAccuracy)m (speed \(speed) mps / course \(course)) @ \(timestamp)"
    }
}
#endif
