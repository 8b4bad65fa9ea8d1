package import AsyncHTTPClient
import Foundation
import HealthAPI
package import HealthStore
import HTTPTypes
import NIOCore
import NIOHTTP1
import OpenAPIAsyncHTTPClient
import OpenAPIRuntime

/// The daemon that owns the person's store (`health serve`), reached over HTTP with the app's bearer token: the
/// generated API client (`HealthAPI`) on AsyncHTTPClient, over the daemon's Unix socket or TCP. Every refusal comes
/// back as the `HKError` the embedded store would throw, from the problem document's HealthKit code.
package struct RemoteBackend: HealthBackend {
    package let server: HKHealthStore.Server
    private let client: Client
    /// The client for authorization requests, which wait while the person decides (up to the daemon's 300 s).
    private let waitingClient: Client
    private let baseURL: String

    package init(server: HKHealthStore.Server) {
        self.server = server
        baseURL = server.address.hasPrefix("/")
            ? "http+unix://" + (server.address.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? server.address)
            : server.address.hasSuffix("/") ? String(server.address.dropLast()) : server.address
        client = Self.client(baseURL, server, timeout: .seconds(60))
        waitingClient = Self.client(baseURL, server, timeout: .seconds(330))
    }

    /// AsyncHTTPClient's shared configuration without its 90 s read timeout: a call parked for the person's answer hears
    /// nothing until the person decides (up to the daemon's 300 s); each call's own deadline bounds it instead. The
    /// tests' daemon harness calls through it too, so its calls wait as an app's do.
    package static let httpClient: HTTPClient = {
        var configuration = HTTPClient.Configuration.singletonConfiguration
        configuration.timeout.read = nil
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }()

    private static func client(_ baseURL: String, _ server: HKHealthStore.Server, timeout: TimeAmount) -> Client {
        Client(serverURL: URL(string: baseURL) ?? URL(fileURLWithPath: "/"), configuration: .init(dateTranscoder: ExactDateTranscoder()),
               transport: AsyncHTTPClientTransport(configuration: .init(client: httpClient, timeout: timeout)),
               middlewares: [BearerTokenMiddleware(token: server.token), Refusals(address: server.address)])
    }

    /// A Unix socket that is not there fails at once (AsyncHTTPClient would retry it until the call's timeout).
    private func checkReachable() throws {
        if server.address.hasPrefix("/"), !FileManager.default.fileExists(atPath: server.address) {
            throw Refusals.unreachable(server.address, "no socket at that path: is `health serve` running?")
        }
    }

    // MARK: - Authorization

    /// Asked synchronously, as HealthKit's `authorizationStatus(for:)` is (see ``blocking(_:_:body:as:)``).
    package func authorizationStatus(for type: HKObjectType) throws -> HKAuthorizationStatus {
        let body = try JSONEncoder().encode(Components.Schemas.TypeList(types: [type.identifier]))
        let answer = try blocking(.POST, "/v1/authorization/status", body: body, as: Components.Schemas.AuthorizationStatuses.self)
        guard let status = answer.statuses.first else { throw unreadable("/statuses", "no status for \(type.identifier)") }
        return switch status {
        case .notDetermined: .notDetermined
        case .sharingDenied: .sharingDenied
        case .sharingAuthorized: .sharingAuthorized
        }
    }

    package func requestAuthorization(toShare typesToShare: Set<HKSampleType>, read typesToRead: Set<HKObjectType>) async throws {
        let request = Components.Schemas.AuthorizationRequest(share: typesToShare.map(\.identifier).sorted(),
                                                              read: typesToRead.map(\.identifier).sorted())
        _ = try await call { try await waitingClient.requestAuthorization(body: .json(request)).noContent }
    }

    /// Waits, as `requestAuthorization` does, while the person chooses on the per-object sheet the daemon holds.
    package func requestPerObjectReadAuthorization(for type: HKObjectType, matching filter: SampleFilter?) async throws {
        let request = Components.Schemas.ObjectAuthorizationRequest(_type: type.identifier, predicate: try filter.map(WirePredicate.wire))
        _ = try await call { try await waitingClient.requestObjectAuthorization(body: .json(request)).noContent }
    }

    package func requestStatus(toShare typesToShare: Set<HKSampleType>, read typesToRead: Set<HKObjectType>) async throws
        -> HKAuthorizationRequestStatus
    {
        let request = Components.Schemas.TypeRequest(share: typesToShare.map(\.identifier).sorted(), read: typesToRead.map(\.identifier).sorted())
        let answer = try await call { try await client.authorizationRequestStatus(body: .json(request)).ok.body.json }
        return switch answer.status {
        case .shouldRequest: .shouldRequest
        case .unnecessary: .unnecessary
        }
    }

    // MARK: - Saving and deleting

    package func save(_ objects: [HKObject]) async throws {
        // A heartbeat series travels with its beats (`HKHeartbeatSeriesBuilder` saves one on its own).
        if let series = objects.first as? HKHeartbeatSeriesSample, let beats = series.beats {
            guard objects.count == 1 else {
                throw HKError.invalidArgument("a heartbeat series with its beats is saved on its own through the health daemon, not in a batch")
            }
            let request = Components.Schemas.HeartbeatSeriesSave(
                sample: WireSample.wire(series),
                beats: beats.map { .init(timeSinceSeriesStart: $0.offset, precededByGap: $0.precededByGap) })
            _ = try await call { try await client.saveHeartbeatSeries(body: .json(request)).noContent }
            return
        }
        let samples = try objects.map(wire)
        _ = try await call { try await client.saveObjects(body: .json(.init(samples: samples))).noContent }
    }

    package func relateWorkoutEffort(_ sample: HKSample, workout: UUID, activity: UUID?) async throws {
        let request = Components.Schemas.WorkoutEffortRelation(sample: try wire(sample), workout: workout.uuidString, activity: activity?.uuidString)
        _ = try await call { try await client.relateWorkoutEffort(body: .json(request)).noContent }
    }

    package func unrelateWorkoutEffort(_ sample: UUID, workout: UUID, activity: UUID?) async throws {
        let request = Components.Schemas.WorkoutEffortReference(sample: sample.uuidString, workout: workout.uuidString, activity: activity?.uuidString)
        _ = try await call { try await client.unrelateWorkoutEffort(body: .json(request)).noContent }
    }

    package func add(_ samples: [HKSample], to workout: HKWorkout, savingWorkout: Bool) async throws {
        let request = Components.Schemas.WorkoutSamples(workout: try wire(workout), samples: try samples.map(wire), saveWorkout: savingWorkout)
        _ = try await call { try await client.addWorkoutSamples(body: .json(request)).noContent }
    }

    /// Sends the series as the builder made it (the daemon checks the quantities and makes the same sample from them).
    package func saveQuantitySeries(_ draft: QuantitySeriesDraft) async throws -> HKQuantitySample {
        let (sample, _) = try draft.sample()
        let request = Components.Schemas.QuantitySeriesSave(
            sample: WireSample.wire(sample),
            quantities: draft.quantities.map { quantity, interval in
                .init(startDate: interval.start, endDate: interval.end, value: quantity.doubleValue(for: sample.quantity.unit))
            })
        _ = try await call { try await client.saveQuantitySeries(body: .json(request)).noContent }
        return sample
    }

    /// An object as the API's sample, or `errorInvalidArgument` for the kinds the API does not carry yet.
    private func wire(_ object: HKObject) throws -> Components.Schemas.Sample {
        if let dose = object as? HKMedicationDoseEvent {
            // Read-only for every app, as the embedded store answers: no need to ask the daemon.
            throw HKError(.errorAuthorizationDenied, "medication dose events are read-only: the person logs them in the Health app (\(dose.uuid))")
        }
        guard let sample = object as? HKSample, WireSample.canCarry(sample) else {
            throw HKError.invalidArgument("\(type(of: object)) objects cannot be saved through the health daemon yet (quantity, category, workout, correlation and CDA document samples can)")
        }
        return WireSample.wire(sample)
    }

    package func delete(_ objects: [HKObject]) async throws {
        let references = objects.map { object in
            Components.Schemas.ObjectReference(uuid: object.uuid.uuidString, _type: (object as? HKSample)?.sampleType.identifier ?? "")
        }
        _ = try await call { try await client.deleteObjects(body: .json(.init(objects: references))).noContent }
    }

    package func deleteObjects(of type: HKObjectType, matching filter: SampleFilter) async throws -> Int {
        let request = Components.Schemas.DeleteMatching(_type: type.identifier, predicate: try WirePredicate.wire(filter))
        return try await call { try await client.deleteMatchingObjects(body: .json(request)).ok.body.json.count }
    }

    // MARK: - Queries

    package func samples(of type: HKSampleType, matching filter: SampleFilter?, order: [SampleOrder], limit: Int?) async throws -> [HKSample] {
        try checkCarried(type)
        let query = Components.Schemas.SampleQuery(
            _type: type.identifier, limit: limit ?? 0, predicate: try filter.map(WirePredicate.wire),
            sort: order.isEmpty ? nil : order.map { .init(key: .init(rawValue: $0.key.rawValue) ?? .startDate, ascending: $0.ascending) })
        // The call apps make most goes around the generated client: its answer is read by hand (`SampleListJSON`).
        let answer = try await posted("/v1/queries/samples", body: try ExactDateTranscoder.jsonEncoder().encode(query))
        let list: Components.Schemas.SampleList
        do { list = try SampleListJSON.decode(answer) } catch let error as WireFieldError { throw unreadable(error.field, error.message) }
        return try stored(list.samples, sources: list.sources, devices: list.devices)
    }

    package func anchoredChanges(_ plan: AnchoredPlan, after anchor: HKQueryAnchor?) async throws -> AnchoredPlan.Answer {
        let query = try anchoredQuery(plan, after: anchor)
        // Read by hand, as the sample query's answer (`SampleListJSON`).
        let bytes = try await posted("/v1/queries/anchored", body: try ExactDateTranscoder.jsonEncoder().encode(query))
        var deleted: [Components.Schemas.DeletedObject]?, sealed: String?, value: Int?
        let list: Components.Schemas.SampleList
        do {
            list = try SampleListJSON.decode(bytes) { key, member in
                switch key {
                case "deletedObjects": deleted = try member.decoded([Components.Schemas.DeletedObject].self)
                case "anchor": sealed = try member.string()
                case "anchorValue": value = try member.integer()
                default: return false
                }
                return true
            }
        } catch let error as WireFieldError {
            throw unreadable(error.field, error.message)
        }
        guard let deleted else { throw unreadable("/deletedObjects", "is required") }
        guard let sealed else { throw unreadable("/anchor", "is required") }
        guard let value else { throw unreadable("/anchorValue", "is required") }
        return try answer(.init(samples: list.samples, sources: list.sources, devices: list.devices, deletedObjects: deleted, anchor: sealed,
                                anchorValue: value))
    }

    /// The API's anchored query for `plan` after `anchor`; a type the API does not carry fails here, saying so.
    private func anchoredQuery(_ plan: AnchoredPlan, after anchor: HKQueryAnchor?) throws -> Components.Schemas.AnchoredQuery {
        for part in plan.queries { try checkCarried(part.type) }
        let form = anchor?.wireForm
        return .init(queries: try plan.queries.map { .init(_type: $0.type.identifier, predicate: try $0.filter.map(WirePredicate.wire)) },
                     anchor: form?.sealed?.base64EncodedString(), anchorValue: form?.value, limit: plan.limit ?? 0)
    }

    /// An anchored answer as the daemon sent it.
    private func answer(_ changes: Components.Schemas.AnchoredChanges) throws -> AnchoredPlan.Answer {
        let samples = try stored(changes.samples, sources: changes.sources, devices: changes.devices)
        let deleted: [HKDeletedObject]
        do { deleted = try WireDeletedObject.stored(changes.deletedObjects) } catch let error as WireFieldError { throw unreadable(error.field, error.message) }
        guard let sealed = Data(base64Encoded: changes.anchor) else { throw unreadable("/anchor", "not base64") }
        return .init(samples: samples, deleted: deleted, position: nil, anchor: .sealed(sealed), integerAnchor: changes.anchorValue)
    }

    /// The daemon's observer stream (Server-Sent Events). A dropped connection — the daemon restarting, say — is
    /// reconnected with the last event's id, so the stream goes on where it stopped and a change made meanwhile comes
    /// as one update; a refusal (a revoked credential, a type no longer carried) ends it with that error.
    package func observerUpdates(_ plan: AnchoredPlan) -> AsyncThrowingStream<Set<String>?, any Error> {
        let request: Components.Schemas.ObserverQuery
        do {
            for part in plan.queries { try checkCarried(part.type) }
            request = .init(queries: try plan.queries.map { .init(_type: $0.type.identifier, predicate: try $0.filter.map(WirePredicate.wire)) })
        } catch {
            return AsyncThrowingStream { $0.finish(throwing: error) }
        }
        return reconnecting(Components.Schemas.ObserverUpdate.self, event: "update") { [client] lastEventID in
            try await client.streamObserverUpdates(headers: .init(lastEventID: lastEventID), body: .json(request)).ok.body.textEventStream
        } element: { update, _ in
            update.start == true ? nil : Set(update.types)
        }
    }

    /// The daemon's anchored stream (Server-Sent Events): the first answer, then each later change the app may see,
    /// reconnected after a drop with the last event's id — the anchor after it — as the observer stream is. After a
    /// reconnect the daemon's first event holds what changed meanwhile; an empty one is no update.
    package func anchoredUpdates(_ plan: AnchoredPlan, after anchor: HKQueryAnchor?) -> AsyncThrowingStream<AnchoredPlan.Answer, any Error> {
        let query: Components.Schemas.AnchoredQuery
        do {
            query = try anchoredQuery(plan, after: anchor)
        } catch {
            return AsyncThrowingStream { $0.finish(throwing: error) }
        }
        let stream = reconnecting(Components.Schemas.AnchoredChanges.self, event: "changes") { [client] lastEventID in
            try await client.streamAnchoredUpdates(headers: .init(lastEventID: lastEventID), body: .json(query)).ok.body.textEventStream
        } element: { [self] changes, _ in
            try answer(changes)
        }
        // The first answer always counts (it may be empty); later ones only when something changed.
        let (answers, continuation) = AsyncThrowingStream<AnchoredPlan.Answer, any Error>.makeStream()
        let task = Task {
            do {
                var first = true
                for try await answer in stream where first || !answer.samples.isEmpty || !answer.deleted.isEmpty {
                    first = false
                    continuation.yield(answer)
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return answers
    }

    /// The daemon's activity-summary stream (Server-Sent Events): the first answer, then the changed summaries,
    /// reconnected after a drop with the last event's id as the other streams are.
    package func activitySummaryUpdates(matching filter: SampleFilter?) -> AsyncThrowingStream<[HKActivitySummary], any Error> {
        let query: Components.Schemas.ActivitySummaryQuery
        do {
            query = .init(predicate: try filter.map(WirePredicate.wire))
        } catch {
            return AsyncThrowingStream { $0.finish(throwing: error) }
        }
        return reconnecting(Components.Schemas.ActivitySummaryList.self, event: "summaries") { [client] lastEventID in
            try await client.streamActivitySummaryUpdates(headers: .init(lastEventID: lastEventID), body: .json(query)).ok.body.textEventStream
        } element: { [self] list, _ in
            do { return try WireActivitySummary.stored(list.summaries) } catch let error as WireFieldError { throw unreadable(error.field, error.message) }
        }
    }

    /// An event stream of the daemon's, opened by `open` with the last event's id (nil the first time) and reopened
    /// after a drop, waiting longer each time (0.1 s, doubling, up to 5 s); each `event` becomes an element. A refusal
    /// (an `HKError` other than the daemon being unreachable) ends it with that error.
    private func reconnecting<Payload: Decodable & Hashable & Sendable, Element: Sendable>(
        _: Payload.Type, event name: String,
        open: @escaping @Sendable (String?) async throws -> HTTPBody,
        element: @escaping @Sendable (Payload, String?) throws -> Element
    ) -> AsyncThrowingStream<Element, any Error> {
        streaming(Payload.self, open: open) { event, elements in
            guard event.event == name, let data = event.data else { return }
            elements.yield(try element(data, event.id))
        }
    }

    /// The same with every event (keepalives aside) given to `handle`, which yields what it makes of it.
    private func streaming<Payload: Decodable & Hashable & Sendable, Element: Sendable>(
        _: Payload.Type, open: @escaping @Sendable (String?) async throws -> HTTPBody,
        handle: @escaping @Sendable (ServerSentEventWithJSONData<Payload>, AsyncThrowingStream<Element, any Error>.Continuation) throws -> Void
    ) -> AsyncThrowingStream<Element, any Error> {
        let (stream, continuation) = AsyncThrowingStream<Element, any Error>.makeStream()
        let task = Task { [self] in
            do {
                var lastEventID: String?
                var pause: Duration = .milliseconds(100)
                while !Task.isCancelled {
                    do {
                        let body = try await call { try await open(lastEventID) }
                        for try await event in body.asDecodedServerSentEventsWithJSONData(of: Payload.self) {
                            pause = .milliseconds(100)
                            try handle(event, continuation)
                            if let id = event.id { lastEventID = id }
                        }
                    } catch let error as HKError where error.code != .errorDatabaseInaccessible {
                        throw error   // refused: a credential that no longer holds, a request the daemon will not take
                    } catch {
                        // Not reached, or the stream broke off: try again, waiting longer each time (up to 5 s).
                    }
                    try await Task.sleep(for: pause)
                    pause = min(pause * 2, .seconds(5))
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: Task.isCancelled ? CancellationError() : error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// The daemon's preferred-units stream: the units of the types this app may ask about, as they are at each
    /// (re)connection and after each change of them.
    package func preferredUnitUpdates() -> AsyncThrowingStream<[String: String], any Error> {
        reconnecting(Components.Schemas.PreferredUnits.self, event: "units") { [client] _ in
            try await client.streamPreferredUnitUpdates().ok.body.textEventStream
        } element: { units, _ in
            units.units.additionalProperties
        }
    }

    package func sources(of type: HKSampleType, matching filter: SampleFilter?) async throws -> [HKSource] {
        let query = Components.Schemas.SourceQuery(_type: type.identifier, predicate: try filter.map(WirePredicate.wire))
        let list = try await call { try await client.querySources(body: .json(query)).ok.body.json }
        return list.sources.map { HKSource(name: $0.name, bundleIdentifier: $0.bundleIdentifier) }
    }

    package func userAnnotatedMedications(matching filter: SampleFilter?, limit: Int?) async throws -> [HKUserAnnotatedMedication] {
        let query = Components.Schemas.MedicationQuery(predicate: try filter.map(WirePredicate.wire), limit: limit)
        let list = try await call { try await client.queryMedications(body: .json(query)).ok.body.json }
        do { return try WireMedication.stored(list.medications) } catch let error as WireFieldError { throw unreadable(error.field, error.message) }
    }

    package func activitySummaries(matching filter: SampleFilter?) async throws -> [HKActivitySummary] {
        let query = Components.Schemas.ActivitySummaryQuery(predicate: try filter.map(WirePredicate.wire))
        let list = try await call { try await client.queryActivitySummaries(body: .json(query)).ok.body.json }
        do { return try WireActivitySummary.stored(list.summaries) } catch let error as WireFieldError { throw unreadable(error.field, error.message) }
    }

    package func electrocardiogramVoltages(of uuid: UUID) async throws -> (samplingFrequency: Double?, microvolts: [Double]) {
        let answer = try await call {
            try await client.queryElectrocardiogramVoltages(body: .json(.init(uuid: uuid.uuidString))).ok.body.json
        }
        return (answer.samplingFrequency, answer.microvolts)
    }

    package func signatureVerification(of uuid: UUID, type: HKSampleType) async throws -> SampleSignatureVerification {
        let answer = try await call {
            try await client.verifySampleSignature(body: .json(.init(uuid: uuid.uuidString, _type: type.identifier))).ok.body.json
        }
        guard let status = SampleSignatureVerification.Status(rawValue: answer.status.rawValue) else {
            throw HKError(.errorInvalidArgument, "the daemon answered with an unknown signature status \(answer.status.rawValue)")
        }
        return SampleSignatureVerification(status: status, signer: answer.signer, reason: answer.reason)
    }

    package func heartbeats(of uuid: UUID) async throws -> [HeartbeatSeriesBeat] {
        let answer = try await call { try await client.queryHeartbeats(body: .json(.init(uuid: uuid.uuidString))).ok.body.json }
        return answer.beats.map { HeartbeatSeriesBeat(offset: $0.timeSinceSeriesStart, precededByGap: $0.precededByGap) }
    }

    package func routeLocations(of uuid: UUID, in interval: DateInterval?) async throws -> [CLLocation] {
        let reference = Components.Schemas.RouteReference(uuid: uuid.uuidString, startDate: interval?.start, endDate: interval?.end)
        let answer = try await call { try await client.queryRouteLocations(body: .json(reference)).ok.body.json }
        return answer.locations.map { location in
            CLLocation(coordinate: CLLocationCoordinate2D(latitude: location.latitude, longitude: location.longitude), altitude: location.altitude,
                       horizontalAccuracy: location.horizontalAccuracy, verticalAccuracy: location.verticalAccuracy, course: location.course,
                       speed: location.speed, timestamp: location.timestamp)
        }
    }

    /// Waits, as `requestAuthorization` does, while the person chooses on the record-sharing sheet the daemon holds.
    package func verifiableRecords(types recordTypes: [String], sourceTypes: [String], matching filter: SampleFilter?) async throws
        -> [HKVerifiableClinicalRecord]
    {
        let query = Components.Schemas.VerifiableRecordQuery(recordTypes: recordTypes, sourceTypes: sourceTypes.isEmpty ? nil : sourceTypes,
                                                             predicate: try filter.map(WirePredicate.wire))
        let answer = try await call { try await waitingClient.queryVerifiableRecords(body: .json(query)).ok.body.json }
        do { return try WireVerifiableRecord.records(answer.records) } catch let error as WireFieldError { throw unreadable(error.field, error.message) }
    }

    package func quantitySeries(of uuids: [UUID], type: HKQuantityType) async throws -> [UUID: [(interval: DateInterval, value: Double)]] {
        let query = Components.Schemas.QuantitySeriesQuery(_type: type.identifier, uuids: uuids.map(\.uuidString))
        let answer = try await call { try await client.queryQuantitySeries(body: .json(query)).ok.body.json }
        var series: [UUID: [(interval: DateInterval, value: Double)]] = [:]
        for (index, one) in answer.series.enumerated() {
            guard let uuid = UUID(uuidString: one.uuid) else { throw unreadable("/series/\(index)/uuid", "\"\(one.uuid)\" is not a UUID") }
            series[uuid] = one.entries.map { (DateInterval(start: $0.startDate, end: max($0.startDate, $0.endDate)), $0.value) }
        }
        return series
    }

    package func enableBackgroundDelivery(for type: HKObjectType, frequency: HKUpdateFrequency) async throws {
        let wire: Components.Schemas.BackgroundDelivery.FrequencyPayload = switch frequency {
        case .immediate: .immediate
        case .hourly: .hourly
        case .daily: .daily
        case .weekly: .weekly
        }
        _ = try await call {
            try await client.enableBackgroundDelivery(path: .init(identifier: type.identifier), body: .json(.init(frequency: wire))).noContent
        }
    }

    package func disableBackgroundDelivery(for type: HKObjectType?) async throws {
        if let type {
            _ = try await call { try await client.disableBackgroundDelivery(path: .init(identifier: type.identifier)).noContent }
        } else {
            _ = try await call { try await client.disableAllBackgroundDelivery().noContent }
        }
    }

    package func backgroundDeliveryFrequency(for type: String) async throws -> HKUpdateFrequency? {
        let state = try await call { try await client.backgroundDeliveryFrequency(path: .init(identifier: type)).ok.body.json }
        return switch state.frequency {
        case .immediate?: .immediate
        case .hourly?: .hourly
        case .daily?: .daily
        case .weekly?: .weekly
        case nil: nil
        }
    }

    /// Read synchronously, as HealthKit's characteristic calls are (see ``blocking(_:_:body:as:)``).
    package func characteristic(_ type: HKCharacteristicTypeIdentifier) throws -> String? {
        let path = "/v1/characteristics/" + (type.rawValue.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? type.rawValue)
        let answer = try blocking(.GET, path, body: nil, as: Components.Schemas.Characteristic.self)
        return answer.dateOfBirth ?? answer.code.map(String.init)
    }

    package func preferredUnits(for types: Set<HKQuantityType>) async throws -> [HKQuantityType: HKUnit] {
        let request = Components.Schemas.TypeList(types: types.map(\.identifier).sorted())
        let answer = try await call { try await client.preferredUnits(body: .json(request)).ok.body.json }
        return try Dictionary(uniqueKeysWithValues: types.map { type in
            guard let text = answer.units.additionalProperties[type.identifier] else {
                throw unreadable("/units", "no unit for \(type.identifier)")
            }
            guard let unit = try? HKUnit.parse(text) else { throw unreadable("/units/\(type.identifier)", "\"\(text)\" is not a unit") }
            return (type, unit)
        })
    }

    /// Samples of types the API does not carry yet fail here, saying so, rather than come back as bare samples.
    private func checkCarried(_ type: HKSampleType) throws {
        guard WireSample.carries(type) else {
            throw HKError(.errorHealthDataUnavailable, "\(type.identifier) samples do not go through the health daemon yet (quantity, category, workout and correlation samples, states of mind, scored assessments, audiograms, vision prescriptions, CDA documents, clinical records, electrocardiograms, heartbeat series and workout routes do)")
        }
    }

    private func stored(_ samples: [Components.Schemas.Sample], sources: [Components.Schemas.Source]?, devices: [Components.Schemas.Device]?) throws
        -> [HKSample]
    {
        do {
            return try WireSample.stored(samples, sources: sources, devices: devices)
        } catch let error as WireFieldError {
            throw unreadable(error.field, error.message)
        }
    }

    private func unreadable(_ field: String, _ message: String) -> HKError {
        HKError(.errorDatabaseInaccessible, "the health daemon at \(server.address) sent an answer this version cannot read (\(field): \(message))")
    }

    package func statistics(_ plan: StatisticsPlan, mergeMode: HKStatisticsMergeMode) async throws -> HKStatistics? {
        let list = try await statisticsList(plan, intervals: nil, mergeMode: mergeMode)
        return try statistics(list.statistics, of: plan).first
    }

    package func statisticsCollection(_ plan: StatisticsPlan, intervals: StatisticsIntervals, mergeMode: HKStatisticsMergeMode) async throws
        -> HKStatisticsCollectionQuery.Computed
    {
        let list = try await statisticsList(plan, intervals: intervals, mergeMode: mergeMode)
        var populated: [Int: HKStatistics] = [:]
        for statistics in try statistics(list.statistics, of: plan) { populated[intervals.index(containing: statistics.startDate)] = statistics }
        let range = list.intervals.map { $0.first...max($0.first, $0.last) }
        return .init(collection: HKStatisticsCollection(intervals: intervals, quantityType: plan.type, options: plan.options, range: range,
                                                        populated: populated),
                     byInterval: populated.mapValues { (nil, $0) })
    }

    /// Asks the daemon to compute the statistics: it sends the statistics, never the samples behind them.
    private func statisticsList(_ plan: StatisticsPlan, intervals: StatisticsIntervals?, mergeMode: HKStatisticsMergeMode) async throws
        -> Components.Schemas.StatisticsList
    {
        var query = Components.Schemas.StatisticsQuery(
            _type: plan.type.identifier, predicate: try plan.filter.map(WirePredicate.wire),
            options: WireStatistics.wire(plan.options),
            mergeMode: mergeMode == .exact ? nil : .init(rawValue: mergeMode.rawValue))
        if let intervals {
            let calendar = intervals.calendar
            guard calendar.identifier == .gregorian || calendar.identifier == .iso8601 else {
                throw HKError.invalidArgument("""
                    through the health daemon, statistics collections follow the Gregorian calendar; this query's calendar is \(calendar.identifier)
                    """)
            }
            guard let components = WireStatistics.wire(intervals.components) else {
                throw HKError.invalidArgument("through the health daemon, intervalComponents are counted in years, months, weeks, days, hours, minutes and seconds")
            }
            query.intervalComponents = components
            query.anchorDate = intervals.anchor
            query.timeZone = calendar.timeZone.identifier
        }
        return try await call { try await client.queryStatistics(body: .json(query)).ok.body.json }
    }

    private func statistics(_ wires: [Components.Schemas.Statistics], of plan: StatisticsPlan) throws -> [HKStatistics] {
        do {
            return try WireStatistics.stored(wires, type: plan.type, separateBySource: plan.options.contains(.separateBySource))
        } catch let error as WireFieldError {
            throw unreadable(error.field, error.message)
        }
    }

    // MARK: - Calls

    /// One request answered synchronously, for HealthKit's synchronous calls: it runs on AsyncHTTPClient's event loops
    /// and this thread waits for it (never on Swift's cooperative pool, which a blocked caller could starve). A refusal
    /// is the `HKError` its problem document names, as for every other call.
    private func blocking<Answer: Decodable>(_ method: HTTPMethod, _ path: String, body: Data?, as: Answer.Type) throws -> Answer {
        let response: HTTPClient.Response
        try checkReachable()
        do {
            response = try Self.httpClient.execute(request: try request(method, path, body: body), deadline: .now() + .seconds(30)).wait()
        } catch {
            throw Refusals.unreachable(server.address, error)
        }
        let data = try answer(response)
        do {
            return try JSONDecoder().decode(Answer.self, from: data)
        } catch {
            throw unreadable(path, "\(error)")
        }
    }

    /// One POST of a JSON body whose answer the caller reads itself (the sample query's, by `SampleListJSON`). It is one
    /// wait for the whole answer, collected on AsyncHTTPClient's event loop, where the generated client's transport
    /// waits for the head and then for the body; a refusal is the `HKError` its problem document names.
    private func posted(_ path: String, body: Data) async throws -> [UInt8] {
        try checkReachable()
        let response: HTTPClient.Response
        do {
            response = try await Self.httpClient.execute(request: try request(.POST, path, body: body), deadline: .now() + .seconds(60)).get()
        } catch {
            throw Refusals.unreachable(server.address, error)
        }
        return Array(try answer(response))
    }

    /// A request with the app's credential, taking JSON and problem documents.
    private func request(_ method: HTTPMethod, _ path: String, body: Data?) throws -> HTTPClient.Request {
        var headers = HTTPHeaders([("accept", "application/json, application/problem+json")])
        if body != nil { headers.add(name: "content-type", value: "application/json") }
        headers.add(name: "authorization", value: "Bearer \(server.token)")
        return try HTTPClient.Request(url: baseURL + path, method: method, headers: headers, body: body.map { .data($0) })
    }

    /// The body of a successful answer; any other is the error its problem document names.
    private func answer(_ response: HTTPClient.Response) throws -> Data {
        let data = Data(response.body?.readableBytesView ?? ByteBuffer().readableBytesView)
        guard response.status == .ok else {
            throw Refusals.error(status: Int(response.status.code), body: data, address: server.address,
                                 retryAfter: response.headers.first(name: "retry-after"))
        }
        return data
    }

    // MARK: - Workout session mirroring

    /// The daemon's workout-session stream (Server-Sent Events): `nil` at each `registered` event, then the messages.
    /// A dropped connection is opened again (messages relayed meanwhile are not kept: a session lives in its
    /// processes); a refusal ends it with that error.
    package func workoutSessionMessages(endpoint: UUID, session: UUID?) -> AsyncThrowingStream<WorkoutSessionMessage?, any Error> {
        let query = Operations.StreamWorkoutSessionMessages.Input.Query(endpoint: endpoint.uuidString.lowercased(),
                                                                        session: session?.uuidString.lowercased())
        return streaming(Components.Schemas.WorkoutSessionEvent.self) { [client] _ in
            try await client.streamWorkoutSessionMessages(query: query).ok.body.textEventStream
        } handle: { event, messages in
            switch event.event {
            case "registered":
                messages.yield(nil)
            case "message":
                // One the relay would not have taken is skipped, as an embedded store never sends it.
                if let wire = event.data?.message, let message = try? WorkoutSessionMessage(wire: wire, at: "/message") {
                    messages.yield(message)
                }
            default:
                break
            }
        }
    }

    package func sendWorkoutSessionMessage(_ message: WorkoutSessionMessage, from endpoint: UUID) async throws -> Int {
        try message.check()
        let body = Components.Schemas.WorkoutSessionSend(endpoint: endpoint.uuidString.lowercased(), message: message.wire)
        return try await call { try await client.sendWorkoutSessionMessage(body: .json(body)).ok.body.json.reached }
    }

    /// Runs one generated-client call, turning what the transport and the middlewares throw into `HKError`.
    private func call<T>(_ work: () async throws -> T) async throws -> T {
        try checkReachable()
        do {
            return try await work()
        } catch let error as ClientError {
            if let refusal = error.underlyingError as? HKError { throw refusal }
            // A documented answer the call did not expect (`.ok` on a 204, say) is the daemon's mistake, not the app's.
            if error.response != nil {
                throw HKError(.errorDatabaseInaccessible, "the health daemon at \(server.address) gave an answer this version cannot read: \(error.underlyingError)")
            }
            throw Refusals.unreachable(server.address, error.underlyingError)
        } catch let error as HKError {
            throw error
        } catch {
            throw HKError(.errorDatabaseInaccessible, "the health daemon at \(server.address) gave an answer this version cannot read: \(error)")
        }
    }
}

extension RemoteBackend {
    /// Turns every answer that is not a success into the `HKError` its problem document names, so the app sees what an
    /// embedded store would have thrown; the quota's 429 and an unknown credential's 401, which an embedded store
    /// cannot answer, become errors that say what happened.
    private struct Refusals: ClientMiddleware {
        let address: String

        func intercept(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
                       next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)) async throws -> (HTTPResponse, HTTPBody?) {
            let (response, responseBody) = try await next(request, body, baseURL)
            guard response.status.kind != .successful else { return (response, responseBody) }
            var data = Data()
            if let responseBody { data = try await Data(collecting: responseBody, upTo: 1 << 20) }
            throw Self.error(status: response.status.code, body: data, address: address, retryAfter: response.headerFields[.retryAfter])
        }

        /// The error a refusal with this status, problem document and `Retry-After` stands for.
        static func error(status: Int, body: Data, address: String, retryAfter: String? = nil) -> HKError {
            let problem = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:]
            let message = (problem["detail"] as? String) ?? (problem["title"] as? String) ?? "HTTP status \(status)"
            if status == 401 {
                return HKError(.errorAuthorizationDenied, """
                    the health daemon at \(address) does not accept this app's credential (OPENHEALTHKIT_TOKEN): it was revoked, \
                    or never issued
                    """)
            }
            if status == 429 {
                return HKError(.errorDatabaseInaccessible,
                               "the health daemon's request quota for this app is used up; try again \(retryAfter.map { "in \($0) s" } ?? "later")")
            }
            if let raw = problem["code"] as? Int, let code = HKError.Code(rawValue: raw) {
                return HKError(code, message)
            }
            return HKError(status >= 500 ? .errorDatabaseInaccessible : .errorInvalidArgument, "the health daemon at \(address) refused: \(message)")
        }

        /// The error for a daemon that could not be reached at all.
        static func unreachable(_ address: String, _ error: Any) -> HKError {
            HKError(.errorDatabaseInaccessible, "cannot reach the health daemon at \(address) (OPENHEALTHKIT_SERVER): \(error)")
        }
    }
}
