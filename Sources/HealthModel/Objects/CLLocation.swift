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
public final class CLLocation: NSObject, Sendable {
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
