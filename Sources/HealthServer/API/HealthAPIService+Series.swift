import Foundation
import HealthAPI
import HealthModel
import OpenHealthKit

/// The data of series samples, for the queries that read it (`HKElectrocardiogramQuery`, `HKHeartbeatSeriesQuery`,
/// `HKWorkoutRouteQuery`, `HKQuantitySeriesSampleQuery`): only of a sample the app may see; a hidden one answers as an
/// absent one.
extension HealthAPIService {
    func queryElectrocardiogramVoltages(_ input: Operations.QueryElectrocardiogramVoltages.Input) async throws
        -> Operations.QueryElectrocardiogramVoltages.Output
    {
        let reference = switch input.body { case .json(let body): body }   // the only content type; others are 415 before here
        let uuid = try Self.uuid(reference.uuid)
        let type = HKObjectType.electrocardiogramType().identifier
        return try await logged("query", attempted: [type: 0]) { store in
            let (frequency, microvolts) = try await store.backend().electrocardiogramVoltages(of: uuid)
            return (.ok(.init(body: .json(.init(microvolts: microvolts, samplingFrequency: frequency)))), [type: 1])
        }
    }

    func queryHeartbeats(_ input: Operations.QueryHeartbeats.Input) async throws -> Operations.QueryHeartbeats.Output {
        let reference = switch input.body { case .json(let body): body }   // the only content type; others are 415 before here
        let uuid = try Self.uuid(reference.uuid)
        let type = HKSeriesType.heartbeat().identifier
        return try await logged("query", attempted: [type: 0]) { store in
            let beats = try await store.backend().heartbeats(of: uuid)
            let wires = beats.map { Components.Schemas.Heartbeat(timeSinceSeriesStart: $0.offset, precededByGap: $0.precededByGap) }
            return (.ok(.init(body: .json(.init(beats: wires)))), [type: 1])
        }
    }

    func queryRouteLocations(_ input: Operations.QueryRouteLocations.Input) async throws -> Operations.QueryRouteLocations.Output {
        let reference = switch input.body { case .json(let body): body }   // the only content type; others are 415 before here
        let uuid = try Self.uuid(reference.uuid)
        let interval: DateInterval?
        switch (reference.startDate, reference.endDate) {
        case (nil, nil): interval = nil
        case let (start?, end?) where start <= end: interval = DateInterval(start: start, end: end)
        case (_?, _?):
            throw Problem(.badRequest, "invalid interval", detail: "/endDate: before /startDate", code: .errorInvalidArgument, field: "/endDate")
        default:
            let missing = reference.startDate == nil ? "/startDate" : "/endDate"
            throw Problem(.badRequest, "invalid interval", detail: "\(missing): an interval needs both startDate and endDate",
                          code: .errorInvalidArgument, field: missing)
        }
        let type = HKSeriesType.workoutRoute().identifier
        return try await logged("query", attempted: [type: 0]) { store in
            let locations = try await store.backend().routeLocations(of: uuid, in: interval)
            let wires = locations.map { location in
                Components.Schemas.Location(timestamp: location.timestamp, latitude: location.coordinate.latitude,
                                            longitude: location.coordinate.longitude, altitude: location.altitude,
                                            horizontalAccuracy: location.horizontalAccuracy, verticalAccuracy: location.verticalAccuracy,
                                            course: location.course, speed: location.speed)
            }
            return (.ok(.init(body: .json(.init(locations: wires)))), [type: 1])
        }
    }

    func queryQuantitySeries(_ input: Operations.QueryQuantitySeries.Input) async throws -> Operations.QueryQuantitySeries.Output {
        let query = switch input.body { case .json(let body): body }   // the only content type; others are 415 before here
        guard let type = HKObjectType.type(forIdentifier: query._type) as? HKQuantityType else {
            throw Self.unknownType(query._type, at: "/type", kind: "quantity type")
        }
        let uuids = try query.uuids.enumerated().map { index, text in try Self.uuid(text, at: "/uuids/\(index)") }
        return try await logged("query", attempted: [type.identifier: 0]) { store in
            let series = try await store.backend().quantitySeries(of: uuids, type: type)
            let wires = uuids.compactMap { uuid in
                series[uuid].map { entries in
                    Components.Schemas.QuantitySeries(uuid: uuid.uuidString, entries: entries.map {
                        .init(startDate: $0.interval.start, endDate: $0.interval.end, value: $0.value)
                    })
                }
            }
            return (.ok(.init(body: .json(.init(series: wires)))), [type.identifier: wires.count])
        }
    }

    /// The UUID a request names at `pointer`, or a 400 saying it is not one.
    static func uuid(_ text: String, at pointer: String = "/uuid") throws -> UUID {
        guard let uuid = UUID(uuidString: text) else {
            throw Problem(.badRequest, "invalid UUID", detail: "\(pointer): \"\(text)\" is not a UUID", code: .errorInvalidArgument, field: pointer)
        }
        return uuid
    }
}
