import Foundation
import HealthAPI
import HealthModel
import HealthStore
import OpenHealthKit

/// The daemon's API (`openapi.json`), each operation answered through the calling app's own `HKHealthStore`: the
/// app is the one its bearer token names (``CallingApp``), never one its request claims.
struct HealthAPIService: APIProtocol {
    let registrations: AppRegistrations
    let stores: AppStores
    let recorder: AccessRecorder
    /// Tells the background deliverer to look at its queue (a callback was set).
    let deliveries: DeliveryWakeup
    /// Where callback URLs may point.
    let callbackHosts: CallbackHosts
    /// The store locked and unlocked: writes made while it is locked are kept in its journal.
    let locking: StoreLocking

    /// Runs `work` for the calling app and notes it in the access log: per type, the count `work` returns (or, when it
    /// fails, the `attempted` counts with the refusal).
    func logged<T>(_ operation: String, attempted: [String: Int], _ work: (HKHealthStore) async throws -> (T, [String: Int])) async throws -> T {
        let app = try CallingApp.required()
        do {
            let (result, counts) = try await work(stores.store(for: app))
            recorder.note(app: app.bundleIdentifier, operation: operation, counts: counts, error: nil)
            return result
        } catch {
            let problem = Self.problem(error)
            recorder.note(app: app.bundleIdentifier, operation: operation, counts: attempted, error: problem)
            throw problem
        }
    }

    private static func counts(_ types: [String]) -> [String: Int] {
        types.reduce(into: [:]) { $0[$1, default: 0] += 1 }
    }

    // MARK: - Apps

    func registerApp(_ input: Operations.RegisterApp.Input) async throws -> Operations.RegisterApp.Output {
        let wire = switch input.body { case .json(let body): body }   // the only content type; others are 415 before here
        let manifest = AppManifest(
            bundleIdentifier: wire.cfBundleIdentifier, name: wire.cfBundleName, version: wire.cfBundleShortVersionString,
            shareUsageDescription: wire.nsHealthShareUsageDescription, updateUsageDescription: wire.nsHealthUpdateUsageDescription,
            clinicalUsageDescription: wire.nsHealthClinicalHealthRecordsShareUsageDescription,
            requiredReadTypeIdentifiers: wire.nsHealthRequiredReadAuthorizationTypeIdentifiers)
        let (id, secret) = try registrations.register(manifest)
        return .created(.init(body: .json(.init(id: id, secret: secret, state: .pending))))
    }

    func claimCredential(_ input: Operations.ClaimCredential.Input) async throws -> Operations.ClaimCredential.Output {
        let claim = switch input.body { case .json(let body): body }   // the only content type; others are 415 before here
        switch try registrations.claim(input.path.registrationID, secret: claim.secret) {
        case .token(let token):
            let manifest = try registrations.app(forToken: token)
            return .ok(.init(body: .json(.init(token: token, bundleIdentifier: manifest?.bundleIdentifier ?? ""))))
        case .pending:
            return .accepted(.init(body: .json(.init(state: .pending))))
        case .refused(let state):
            throw Problem(.forbidden, "registration \(state.rawValue)",
                          detail: "the person \(state.rawValue) this app; it may register again to ask anew", code: .errorAuthorizationDenied)
        case .alreadyIssued:
            throw Problem(.gone, "credential already issued",
                          detail: "this registration's credential was given once; an app that lost it registers again")
        case nil:
            throw Problem(.notFound, "no such registration", detail: "no registration has this id and secret")
        }
    }

    // MARK: - Authorization

    func authorizationStatus(_ input: Operations.AuthorizationStatus.Input) async throws -> Operations.AuthorizationStatus.Output {
        let list = switch input.body { case .json(let body): body }   // the only content type; others are 415 before here
        let app = try CallingApp.required()
        let store = stores.store(for: app)
        let statuses = try list.types.enumerated().map { index, identifier in
            guard let type = HKObjectType.type(forIdentifier: identifier) else {
                let problem = Self.unknownType(identifier, at: "/types/\(index)")
                recorder.note(app: app.bundleIdentifier, operation: "authorizationStatus", type: nil, count: list.types.count,
                              outcome: AccessRecorder.outcome(problem))
                throw problem
            }
            let status: Components.Schemas.AuthorizationStatusValue = switch store.authorizationStatus(for: type) {
            case .notDetermined: .notDetermined
            case .sharingDenied: .sharingDenied
            case .sharingAuthorized: .sharingAuthorized
            }
            return status
        }
        recorder.note(app: app.bundleIdentifier, operation: "authorizationStatus", type: nil, count: list.types.count, outcome: "allowed")
        return .ok(.init(body: .json(.init(statuses: statuses))))
    }

    /// `requestAuthorization(toShare:read:)`: waits while the person decides (``ParkedPresenter``).
    func requestAuthorization(_ input: Operations.RequestAuthorization.Input) async throws -> Operations.RequestAuthorization.Output {
        let request = switch input.body { case .json(let body): body }   // the only content type; others are 415 before here
        let (share, read) = try Self.types(share: request.share, read: request.read)
        let attempted = Self.counts(share.map(\.identifier) + read.map(\.identifier)).mapValues { _ in 0 }
        return try await logged("requestAuthorization", attempted: attempted) { store in
            do {
                // The engine's request, with this request's own wait (HKHealthStore's presenter waits the default).
                let presenter = ParkedPresenter(database: try store.sampleStore().database,
                                                timeout: .seconds(request.timeoutSeconds ?? 300))
                try await store.service().requestAuthorization(app: store.configuration.app, share: Set(share), read: Set(read),
                                                               presenter: presenter)
            } catch let error as HKError where error.code == .errorUserCanceled {
                var problem = Problem(error)
                problem.status = .conflict
                throw problem
            }
            return (.noContent, attempted)
        }
    }

    /// `requestPerObjectReadAuthorization`: the per-object sheet waits in the store (``ParkedPresenter``) until the person
    /// answers or it times out, as a closed sheet (409, `errorUserCanceled`).
    func requestObjectAuthorization(_ input: Operations.RequestObjectAuthorization.Input) async throws
        -> Operations.RequestObjectAuthorization.Output
    {
        let request = switch input.body { case .json(let body): body }   // the only content type; others are 415 before here
        guard let type = HKObjectType.type(forIdentifier: request._type) else { throw Self.unknownType(request._type, at: "/type") }
        let filter = try request.predicate.map { try Self.filter($0, at: "/predicate") }
        return try await logged("requestObjectAuthorization", attempted: [type.identifier: 0]) { store in
            do {
                // The engine's request, with this request's own wait.
                let samples = try store.sampleStore()
                let engine = EmbeddedBackend(samples: samples, app: store.configuration.app,
                                             presenter: ParkedPresenter(database: samples.database, timeout: .seconds(request.timeoutSeconds ?? 300)))
                try await engine.requestPerObjectReadAuthorization(for: type, matching: filter)
            } catch let error as HKError where error.code == .errorUserCanceled {
                var problem = Problem(error)
                problem.status = .conflict
                throw problem
            }
            return (.noContent, [type.identifier: 0])
        }
    }

    // MARK: - Saving and deleting

    func saveObjects(_ input: Operations.SaveObjects.Input) async throws -> Operations.SaveObjects.Output {
        let batch = switch input.body { case .json(let body): body }   // the only content type; others are 415 before here
        let attempted = Self.counts(batch.samples.map(\._type))
        return try await logged("save", attempted: attempted) { store in
            let objects = try batch.samples.enumerated().map { index, sample in try Self.object(sample, at: "/samples/\(index)") }
            let kept = try await writing(.save, batch, counts: attempted) { try await store.save(objects) }
            return (.noContent, kept ? [:] : attempted)
        }
    }

    /// `add(_:to:)` and `HKWorkoutBuilder.finishWorkout()`: samples associated with the app's workout (saved with it when
    /// `saveWorkout`), all or none, with the rules an embedded store has.
    func addWorkoutSamples(_ input: Operations.AddWorkoutSamples.Input) async throws -> Operations.AddWorkoutSamples.Output {
        let request = switch input.body { case .json(let body): body }   // the only content type; others are 415 before here
        let saving = request.saveWorkout ?? false
        var attempted = Self.counts(request.samples.map(\._type))
        if saving { attempted[request.workout._type, default: 0] += 1 }
        return try await logged("save", attempted: attempted) { store in
            let workout = try Self.object(request.workout, at: "/workout")
            guard let workout = workout as? HKWorkout else {
                throw Problem(.badRequest, "not a workout", detail: "/workout/type: \(request.workout._type) is not \(HKWorkoutTypeIdentifier)",
                              code: .errorInvalidArgument, field: "/workout/type")
            }
            let samples = try request.samples.enumerated().map { index, sample in try Self.object(sample, at: "/samples/\(index)") }
            let kept = try await writing(.addWorkoutSamples, request, counts: attempted) {
                try await store.backend().add(samples, to: workout, savingWorkout: saving)
            }
            return (.noContent, kept ? [:] : attempted)
        }
    }

    /// `HKQuantitySeriesSampleBuilder.finishSeries`: the quantities checked as the builder checks them, the sample made
    /// from them as the builder makes it, saved as the app, all or nothing.
    func saveQuantitySeries(_ input: Operations.SaveQuantitySeries.Input) async throws -> Operations.SaveQuantitySeries.Output {
        let request = switch input.body { case .json(let body): body }   // the only content type; others are 415 before here
        let parts: (uuid: UUID, type: HKQuantityType, unit: HKUnit, metadata: [String: HKMetadataValue]?, device: HKDevice?)
        do { parts = try WireSample.seriesParts(request.sample, at: "/sample") } catch { throw Self.problem(error) }
        let start = request.sample.startDate
        let quantities = try request.quantities.enumerated().map { index, wire in
            let pointer = "/quantities/\(index)"
            guard wire.endDate >= wire.startDate else {
                throw Problem(.badRequest, "invalid interval", detail: "\(pointer)/endDate: before its startDate", code: .errorInvalidArgument,
                              field: pointer + "/endDate")
            }
            let quantity = HKQuantity(unit: parts.unit, doubleValue: wire.value), interval = DateInterval(start: wire.startDate, end: wire.endDate)
            do { try QuantitySeriesDraft.check(quantity, for: interval, type: parts.type, start: start) } catch let error as HKError {
                throw Problem(error, field: pointer)
            }
            return (quantity, interval)
        }
        guard Set(quantities.map(\.1.start)).count == quantities.count else {
            throw Problem(.badRequest, "invalid series", detail: "/quantities: two quantities start at the same time (the builder keeps the last)",
                          code: .errorInvalidArgument, field: "/quantities")
        }
        let draft = QuantitySeriesDraft(type: parts.type, start: start, device: parts.device, uuid: parts.uuid, quantities: quantities,
                                        metadata: parts.metadata, endDate: request.sample.endDate)
        return try await logged("save", attempted: [parts.type.identifier: 1]) { store in
            let kept = try await writing(.saveQuantitySeries, request, counts: [parts.type.identifier: 1]) {
                do { _ = try await store.backend().saveQuantitySeries(draft) } catch let error as HKError where error.code == .errorInvalidArgument {
                    throw Problem(error, field: "/sample")
                }
            }
            return (.noContent, kept ? [:] : [parts.type.identifier: 1])
        }
    }

    /// `HKHeartbeatSeriesBuilder.finishSeries`: the series with its beats, checked as the builder checks them, saved as
    /// the app.
    func saveHeartbeatSeries(_ input: Operations.SaveHeartbeatSeries.Input) async throws -> Operations.SaveHeartbeatSeries.Output {
        let request = switch input.body { case .json(let body): body }   // the only content type; others are 415 before here
        let series: HKHeartbeatSeriesSample
        do { series = try WireSample.heartbeatSeries(request.sample, beats: request.beats, at: "/sample") } catch { throw Self.problem(error) }
        let type = HKSeriesType.heartbeat().identifier
        return try await logged("save", attempted: [type: 1]) { store in
            let kept = try await writing(.saveHeartbeatSeries, request, counts: [type: 1]) { try await store.save(series) }
            return (.noContent, kept ? [:] : [type: 1])
        }
    }

    /// The object an app sends at `pointer`, or the 400 naming what is wrong with it.
    static func object(_ wire: Components.Schemas.Sample, at pointer: String) throws -> HKSample {
        do { return try WireSample.object(wire, at: pointer) } catch let error as HKError { throw Problem(error, field: pointer) }
    }

    /// Deletes the objects named, all or none: each must be one the app can see (its own, or readable), and the
    /// engine then allows deleting only its own. An object the app cannot see is "not in the store", whether it
    /// exists or not, as embedded.
    func deleteObjects(_ input: Operations.DeleteObjects.Input) async throws -> Operations.DeleteObjects.Output {
        let list = switch input.body { case .json(let body): body }   // the only content type; others are 415 before here
        let counts = Self.counts(list.objects.map(\._type))
        return try await logged("delete", attempted: counts) { store in
            let references = try Self.references(list)
            let kept = try await writing(.delete, list, counts: counts) { try await delete(references, in: store) }
            return (.noContent, kept ? [:] : counts)
        }
    }

    /// The objects a delete names, by type, or the 400 naming the first that is not a sample's UUID and type.
    private static func references(_ list: Components.Schemas.ObjectList) throws -> [String: (type: HKSampleType, uuids: [UUID])] {
        var byType: [String: (type: HKSampleType, uuids: [UUID])] = [:]
        for (index, reference) in list.objects.enumerated() {
            guard let uuid = UUID(uuidString: reference.uuid) else {
                throw Problem(.badRequest, "invalid object", detail: "/objects/\(index)/uuid: \"\(reference.uuid)\" is not a UUID",
                              code: .errorInvalidArgument, field: "/objects/\(index)/uuid")
            }
            guard let type = HKObjectType.type(forIdentifier: reference._type) as? HKSampleType else {
                throw Self.unknownType(reference._type, at: "/objects/\(index)/type")
            }
            byType[type.identifier, default: (type, [])].uuids.append(uuid)
        }
        return byType
    }

    /// Deletes the objects named, as the app. They are looked up as they are in the store — whoever may read them — and
    /// the engine's delete applies the rules (an app deletes what it saved, even what it may no longer read; another
    /// app's object it may not see answers as an absent one), exactly as for an embedded store.
    private func delete(_ byType: [String: (type: HKSampleType, uuids: [UUID])], in store: HKHealthStore) async throws {
        var objects: [HKObject] = []
        let samples = try store.sampleStore()
        // The engine's first checks, before any lookup: without them an absent UUID would be refused before a present one.
        try samples.checkMayDelete(byType.values.map(\.type).sorted { $0.identifier < $1.identifier }, app: store.configuration.app)
        for (type, uuids) in byType.values {
            let found = try samples.samples(ofType: type, matching: .uuids(Set(uuids)), visibleTo: AuthorizationService.personReader)
            let seen = Set(found.map(\.uuid))
            if let absent = uuids.first(where: { !seen.contains($0) }) {
                throw Problem(HKError.invalidArgument("object \(absent) is not in the store"))
            }
            objects += found as [HKObject]
        }
        try await store.delete(objects)
    }

    // MARK: - Queries

    /// The generated route's answer; the daemon answers this operation by hand (``HandAnsweredRoutes``), with the same
    /// samples written by `SampleListJSON`.
    func querySamples(_ input: Operations.QuerySamples.Input) async throws -> Operations.QuerySamples.Output {
        let query = switch input.body { case .json(let body): body }   // the only content type; others are 415 before here
        let list = WireSample.list(try await sampleQuery(query))
        return .ok(.init(body: .json(.init(samples: list.samples, sources: list.sources, devices: list.devices))))
    }

    /// The samples an `HKSampleQuery` asks for.
    func sampleQuery(_ query: Components.Schemas.SampleQuery) async throws -> [HKSample] {
        guard let type = HKObjectType.type(forIdentifier: query._type) as? HKSampleType else {
            throw Self.unknownType(query._type, at: "/type")
        }
        try Self.checkCarried(type, at: "/type")
        return try await logged("query", attempted: [type.identifier: 0]) { store in
            let samples = try await samples(query, of: type, in: store)
            return (samples, [type.identifier: samples.count])
        }
    }

    /// The query's samples: its date range and predicate (both when both are given), its sort keys (or `ascending` by
    /// start date), its limit — run as the app's own embedded store runs them.
    private func samples(_ query: Components.Schemas.SampleQuery, of type: HKSampleType, in store: HKHealthStore) async throws -> [HKSample] {
        let filter = try Self.filter(start: query.startDate, end: query.endDate, predicate: query.predicate)
        let order = query.sort.map { keys in
            keys.map { SampleOrder(key: SampleOrder.Key(rawValue: $0.key.rawValue) ?? .startDate, ascending: $0.ascending ?? true) }
        } ?? [SampleOrder(key: .startDate, ascending: query.ascending ?? true)]
        let limit = query.limit.flatMap { $0 > 0 ? $0 : nil }
        return try await store.backend().samples(of: type, matching: filter, order: order, limit: limit)
    }

    /// A query's filter: its date range (`startDate`/`endDate`) and its `predicate`, both when both are given.
    static func filter(start: Date?, end: Date?, predicate: Components.Schemas.Predicate?) throws -> SampleFilter? {
        var filters: [SampleFilter] = []
        if let range = datePredicate(start: start, end: end) { filters.append(try SampleFilter(range)) }
        if let predicate { filters.append(try filter(predicate, at: "/predicate")) }
        return filters.count > 1 ? .and(filters) : filters.first
    }

    // MARK: - Requests status and deleting by predicate

    func authorizationRequestStatus(_ input: Operations.AuthorizationRequestStatus.Input) async throws -> Operations.AuthorizationRequestStatus.Output {
        let request = switch input.body { case .json(let body): body }   // the only content type; others are 415 before here
        let (share, read) = try Self.types(share: request.share, read: request.read)
        return try await logged("requestStatus", attempted: [:]) { store in
            let status: Components.Schemas.AuthorizationRequestStatus.StatusPayload =
                switch try await store.statusForAuthorizationRequest(toShare: Set(share), read: Set(read)) {
                case .shouldRequest: .shouldRequest
                case .unnecessary: .unnecessary
                case .unknown: throw Problem(HKError(.errorDatabaseInaccessible, "the request status is unknown"))
                @unknown default: throw Problem(HKError(.errorDatabaseInaccessible, "the request status is unknown"))
                }
            return (.ok(.init(body: .json(.init(status: status)))), [:])
        }
    }

    func deleteMatchingObjects(_ input: Operations.DeleteMatchingObjects.Input) async throws -> Operations.DeleteMatchingObjects.Output {
        let request = switch input.body { case .json(let body): body }   // the only content type; others are 415 before here
        guard let type = HKObjectType.type(forIdentifier: request._type) else { throw Self.unknownType(request._type, at: "/type") }
        let filter = try Self.filter(request.predicate, at: "/predicate")
        return try await logged("delete", attempted: [type.identifier: 0]) { store in
            let count = try await store.backend().deleteObjects(of: type, matching: filter)
            return (.ok(.init(body: .json(.init(count: count)))), [type.identifier: count])
        }
    }

    // MARK: - Helpers

    /// `HKQuery.predicateForSamples(withStart:end:)` when a request names either date, else no predicate.
    static func datePredicate(start: Date?, end: Date?) -> NSPredicate? {
        start == nil && end == nil ? nil : HKQuery.predicateForSamples(withStart: start, end: end)
    }

    /// The types a request asks to share (sample types) and to read, or a 400 naming the first it cannot be.
    static func types(share: [String], read: [String]) throws -> (share: [HKSampleType], read: [HKObjectType]) {
        let sampleTypes = try share.enumerated().map { index, identifier in
            guard let type = HKObjectType.type(forIdentifier: identifier) as? HKSampleType else {
                throw unknownType(identifier, at: "/share/\(index)", kind: "sample type")
            }
            return type
        }
        let objectTypes = try read.enumerated().map { index, identifier in
            guard let type = HKObjectType.type(forIdentifier: identifier) else { throw unknownType(identifier, at: "/read/\(index)") }
            return type
        }
        return (sampleTypes, objectTypes)
    }

    /// A request's predicate as the engine's filter, or a 400 naming what is wrong with it.
    static func filter(_ wire: Components.Schemas.Predicate, at pointer: String) throws -> SampleFilter {
        do {
            return try WirePredicate.filter(wire, at: pointer)
        } catch let error as WireFieldError {
            throw Problem(.badRequest, "invalid predicate", detail: "\(error.field): \(error.message)", code: .errorInvalidArgument, field: error.field)
        }
    }

    /// What an operation threw, as the problem the app gets.
    static func problem(_ error: any Error) -> any Error {
        switch error {
        case let error as HKError: Problem(error)
        case let error as WireFieldError:
            Problem(.badRequest, "invalid request", detail: "\(error.field): \(error.message)", code: .errorInvalidArgument, field: error.field)
        default: error
        }
    }

    static func unknownType(_ identifier: String, at pointer: String, kind: String = "type") -> Problem {
        Problem(.badRequest, "unknown type", detail: "\(pointer): \"\(identifier)\" is not a HealthKit \(kind) identifier this store knows",
                code: .errorInvalidArgument, field: pointer)
    }
}
