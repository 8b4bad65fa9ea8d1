import Foundation
package import HealthAPI
import OpenAPIRuntime

/// A workout-session message as the daemon's API carries it (`WorkoutSessionMessage` of openapi.json), both ways.
extension WorkoutSessionMessage {
    package var wire: Components.Schemas.WorkoutSessionMessage {
        .init(session: session.uuidString.lowercased(), toPrimary: toPrimary,
              kind: Components.Schemas.WorkoutSessionMessage.KindPayload(rawValue: kind.rawValue) ?? .data,
              configuration: configuration.map { configuration in
                  .init(activityType: Int(configuration.activityType), locationType: configuration.locationType,
                        swimmingLocationType: configuration.swimmingLocationType,
                        lapLength: configuration.lapLengthMeters.map { .init(value: $0, unit: "m") })
              },
              state: state, fromState: fromState, date: date, startDate: startDate, eventType: eventType,
              data: data.map { Base64EncodedData(Array($0)) },
              request: request.flatMap { Components.Schemas.WorkoutSessionMessage.RequestPayload(rawValue: $0.rawValue) })
    }

    /// The message a request or an event carries; a value it cannot stand for is a ``WireFieldError`` naming the field
    /// (under `pointer`), and so is a message missing what its kind needs (``problem``).
    package init(wire: Components.Schemas.WorkoutSessionMessage, at pointer: String) throws {
        guard let session = UUID(uuidString: wire.session) else { throw WireFieldError(pointer + "/session", "\"\(wire.session)\" is not a UUID") }
        var configuration: Configuration?
        if let wired = wire.configuration {
            guard let activityType = UInt(exactly: wired.activityType), HKWorkoutActivityType(rawValue: activityType) != nil else {
                throw WireFieldError(pointer + "/configuration/activityType", "\(wired.activityType) is not an HKWorkoutActivityType")
            }
            var meters: Double?
            if let lap = wired.lapLength {
                guard let unit = try? HKUnit.parse(lap.unit), HKQuantity(unit: unit, doubleValue: lap.value).is(compatibleWith: HKUnit.meter()) else {
                    throw WireFieldError(pointer + "/configuration/lapLength/unit", "\"\(lap.unit)\" is not a unit of length")
                }
                meters = HKQuantity(unit: unit, doubleValue: lap.value).doubleValue(for: HKUnit.meter())
            }
            configuration = Configuration(activityType: activityType, locationType: wired.locationType ?? HKWorkoutSessionLocationType.unknown.rawValue,
                                          swimmingLocationType: wired.swimmingLocationType ?? HKWorkoutSwimmingLocationType.unknown.rawValue,
                                          lapLengthMeters: meters)
        }
        self.init(session: session, toPrimary: wire.toPrimary, kind: Kind(rawValue: wire.kind.rawValue) ?? .data,
                  configuration: configuration, state: wire.state, fromState: wire.fromState, date: wire.date, startDate: wire.startDate,
                  eventType: wire.eventType, data: wire.data.map { Data($0.data) }, request: wire.request.flatMap { Request(rawValue: $0.rawValue) })
        if let problem {
            throw WireFieldError(pointer + problem.field, problem.message)
        }
    }
}
