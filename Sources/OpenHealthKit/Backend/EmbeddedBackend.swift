import Foundation
package import HealthStore

/// The engine in this process: the person's SQLite store, opened by the app itself (tests, scripts, the CLI on the
/// person's own store) or by the daemon for each app it serves.
package struct EmbeddedBackend: HealthBackend {
    package let samples: SampleStore
    package let app: AppManifest
    package let presenter: any HKAuthorizationPresenter

    package init(samples: SampleStore, app: AppManifest, presenter: any HKAuthorizationPresenter) {
        self.samples = samples
        self.app = app
        self.presenter = presenter
    }

    package func authorizationStatus(for type: HKObjectType) throws -> HKAuthorizationStatus {
        try samples.authorization.shareStatus(app: app.bundleIdentifier, type: type.identifier)
    }

    package func requestAuthorization(toShare typesToShare: Set<HKSampleType>, read typesToRead: Set<HKObjectType>) async throws {
        try await samples.authorization.requestAuthorization(app: app, share: typesToShare, read: typesToRead, presenter: presenter)
    }

    package func requestPerObjectReadAuthorization(for type: HKObjectType, matching filter: SampleFilter?) async throws {
        try AuthorizationService.checkPerObject(type)
        if type is HKUserAnnotatedMedicationType {
            // Every medication the person tracks that matches; none is the app's own.
            let medications = try samples.medications(matching: filter, visibleTo: AuthorizationService.personReader)
            return try await samples.authorization.requestPerObjectReadAuthorization(app: app, medications: medications, presenter: presenter)
        }
        guard let sampleType = type as? HKSampleType else { throw HKError.invalidArgument("\(type.identifier) is not a sample type") }
        // The person sees every matching object, whoever saved it (the app's own too: the person may turn them off).
        let candidates = try samples.samples(ofType: sampleType, matching: filter, visibleTo: AuthorizationService.personReader)
        try await samples.authorization.requestPerObjectReadAuthorization(app: app, type: type, candidates: candidates, presenter: presenter)
    }

    package func requestStatus(toShare typesToShare: Set<HKSampleType>, read typesToRead: Set<HKObjectType>) async throws
        -> HKAuthorizationRequestStatus
    {
        try samples.authorization.requestStatus(app: app.bundleIdentifier, share: Set(typesToShare.map(\.identifier)),
                                                read: Set(typesToRead.map(\.identifier)))
    }

    package func save(_ objects: [HKObject]) async throws {
        try samples.save(objects, app: app)
    }

    package func add(_ samples: [HKSample], to workout: HKWorkout, savingWorkout: Bool) async throws {
        try self.samples.associate(samples, with: workout, app: app, savingWorkout: savingWorkout)
    }

    package func delete(_ objects: [HKObject]) async throws {
        try samples.delete(objects, app: app)
    }

    package func deleteObjects(of type: HKObjectType, matching filter: SampleFilter) async throws -> Int {
        try samples.deleteObjects(ofType: type, matching: filter, app: app)
    }

    package func samples(of type: HKSampleType, matching filter: SampleFilter?, order: [SampleOrder], limit: Int?) async throws -> [HKSample] {
        let order = order.isEmpty ? [SampleOrder(key: .startDate, ascending: true)] : order
        if let key = order.first(where: { !$0.key.isColumn }), type != HKObjectType.workoutType() {
            throw HKError.invalidArgument("only workouts can be sorted by \(key.key); \(type.identifier) samples by start or end date")
        }
        guard order.allSatisfy(\.key.isColumn) else {
            // A workout's duration and totals are not columns: sort the app's matching workouts here, then cut.
            var found = try samples.samples(ofType: type, matching: filter, visibleTo: app.bundleIdentifier)
            found.sort { SampleQueryPlan.precedes($0, $1, by: order) }
            if let limit, found.count > limit { found.removeLast(found.count - limit) }
            return found
        }
        return try samples.samples(ofType: type, matching: filter, visibleTo: app.bundleIdentifier, order: order, limit: limit)
    }

    package func anchoredChanges(_ plan: AnchoredPlan, after anchor: HKQueryAnchor?) async throws -> AnchoredPlan.Answer {
        let seal = try samples.anchorSeal(for: app.bundleIdentifier)
        return try plan.fetch(from: samples, app: app.bundleIdentifier, after: try anchor?.position(opening: seal) ?? .start, limit: plan.limit,
                              seal: seal)
    }

    package func anchoredUpdates(_ plan: AnchoredPlan, after anchor: HKQueryAnchor?) -> AsyncThrowingStream<AnchoredPlan.Answer, any Error> {
        Self.producing { [samples, app] continuation in
            let seal = try samples.anchorSeal(for: app.bundleIdentifier)
            let start = try anchor?.position(opening: seal) ?? .start
            // Subscribed before the first answer is read: a change in between is heard, not lost.
            let updates = samples.changes.subscribe()
            var answer = try plan.fetch(from: samples, app: app.bundleIdentifier, after: start, limit: plan.limit, seal: seal)
            continuation.yield(answer)
            // What the limit held back comes at once as the first update, not with the next change (which could be
            // one the app may not see: it would learn when that happened).
            if plan.limit != nil {
                let rest = try plan.fetch(from: samples, app: app.bundleIdentifier, after: answer.position ?? start, limit: nil, seal: seal)
                if !rest.samples.isEmpty || !rest.deleted.isEmpty {
                    answer = rest
                    continuation.yield(rest)
                }
            }
            for await change in updates where !change.touched(among: plan.typeIdentifiers).isEmpty {
                let next = try plan.fetch(from: samples, app: app.bundleIdentifier, after: answer.position ?? start, limit: nil, seal: seal)
                guard !Task.isCancelled else { break }
                guard !next.samples.isEmpty || !next.deleted.isEmpty else { continue }
                answer = next
                continuation.yield(next)
            }
        }
    }

    package func observerUpdates(_ plan: AnchoredPlan) -> AsyncThrowingStream<Set<String>?, any Error> {
        Self.mapped(ObserverFeed.updates(plan, samples: samples, app: app.bundleIdentifier, after: nil)) { $0.changed }
    }

    /// `source`'s elements through `transform`, ending as it ends; the consumer stopping stops `source`.
    private static func mapped<Element: Sendable, Mapped: Sendable>(
        _ source: AsyncThrowingStream<Element, any Error>, _ transform: @escaping @Sendable (Element) -> Mapped
    ) -> AsyncThrowingStream<Mapped, any Error> {
        producing { continuation in
            for try await element in source { continuation.yield(transform(element)) }
        }
    }

    /// A stream whose elements `body` yields on a task of its own; it finishes when `body` returns (or with what it
    /// throws), and the consumer stopping cancels the task.
    private static func producing<Element: Sendable>(
        _ body: @escaping @Sendable (AsyncThrowingStream<Element, any Error>.Continuation) async throws -> Void
    ) -> AsyncThrowingStream<Element, any Error> {
        let (stream, continuation) = AsyncThrowingStream<Element, any Error>.makeStream()
        let task = Task.detached {
            do {
                try await body(continuation)
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    package func sources(of type: HKSampleType, matching filter: SampleFilter?) async throws -> [HKSource] {
        try samples.sources(ofType: type, matching: filter, visibleTo: app.bundleIdentifier)
    }

    package func userAnnotatedMedications(matching filter: SampleFilter?, limit: Int?) async throws -> [HKUserAnnotatedMedication] {
        try samples.medications(matching: filter, visibleTo: app.bundleIdentifier, limit: limit).map(\.medication)
    }

    package func activitySummaries(matching filter: SampleFilter?) async throws -> [HKActivitySummary] {
        try ActivitySummaryStore(database: samples.database).summaries(matching: filter, visibleTo: app.bundleIdentifier).summaries
    }

    package func saveQuantitySeries(_ draft: QuantitySeriesDraft) async throws -> HKQuantitySample {
        let (sample, entries) = try draft.sample()
        try samples.saveSeries(sample, entries: entries, app: app)
        return sample
    }

    package func activitySummaryUpdates(matching filter: SampleFilter?) -> AsyncThrowingStream<[HKActivitySummary], any Error> {
        Self.mapped(activitySummarySnapshots(matching: filter, after: nil)) { $0.summaries }
    }

    /// The matching summaries the app may read with the store's revision: all of them first, or — after `revision`, a
    /// resumed stream — those changed since (only if any); then the new or changed ones after each change.
    package func activitySummarySnapshots(matching filter: SampleFilter?, after revision: Int?)
        -> AsyncThrowingStream<ActivitySummaryStore.Snapshot, any Error>
    {
        Self.producing { [samples, app] continuation in
            let summaries = ActivitySummaryStore(database: samples.database)
            // Subscribed before the first read: a change in between is heard, not lost.
            let updates = samples.changes.subscribe()
            var snapshot = try summaries.summaries(matching: filter, visibleTo: app.bundleIdentifier, after: revision)
            if revision == nil || !snapshot.summaries.isEmpty { continuation.yield(snapshot) }
            for await change in updates where change.touches(ActivitySummaryStore.typeIdentifier) {
                let next = try summaries.summaries(matching: filter, visibleTo: app.bundleIdentifier, after: snapshot.revision)
                guard !Task.isCancelled else { break }
                snapshot = next
                guard !next.summaries.isEmpty else { continue }
                continuation.yield(next)
            }
        }
    }

    package func electrocardiogramVoltages(of uuid: UUID) async throws -> (samplingFrequency: Double?, microvolts: [Double]) {
        let ecg = try await visibleSample(uuid, of: HKObjectType.electrocardiogramType(), named: "electrocardiogram") as? HKElectrocardiogram
        return (ecg?.samplingFrequency?.doubleValue(for: .hertz()), try samples.voltages(of: uuid))
    }

    package func heartbeats(of uuid: UUID) async throws -> [HeartbeatSeriesBeat] {
        _ = try await visibleSample(uuid, of: HKSeriesType.heartbeat(), named: "heartbeat series")
        return try samples.beats(of: uuid)
    }

    package func relateWorkoutEffort(_ sample: HKSample, workout: UUID, activity: UUID?) async throws {
        try samples.relateWorkoutEffort(sample, workout: workout, activity: activity, app: app)
    }

    package func unrelateWorkoutEffort(_ sample: UUID, workout: UUID, activity: UUID?) async throws {
        try samples.unrelateWorkoutEffort(sample, workout: workout, activity: activity, app: app)
    }

    package func signatureVerification(of uuid: UUID, type: HKSampleType) async throws -> SampleSignatureVerification {
        let sample = try await visibleSample(uuid, of: type, named: "sample")
        let signers = try TrustedSigners(database: samples.database).all().map { try SignerCertificate(derEncoded: $0.certificate) }
        return await sample.verifyDigitalSignature(trusting: signers)
    }

    package func routeLocations(of uuid: UUID, in interval: DateInterval?) async throws -> [CLLocation] {
        _ = try await visibleSample(uuid, of: HKSeriesType.workoutRoute(), named: "route")
        return try samples.routeLocations(of: uuid, in: interval)
    }

    package func verifiableRecords(types recordTypes: [String], sourceTypes: [String], matching filter: SampleFilter?) async throws
        -> [HKVerifiableClinicalRecord]
    {
        guard !(app.clinicalUsageDescription ?? "").isEmpty else {
            throw HKError.invalidArgument(
                "\(app.bundleIdentifier) must declare NSHealthClinicalHealthRecordsShareUsageDescription in its manifest to ask for verifiable records")
        }
        guard !recordTypes.isEmpty else { throw HKError.invalidArgument("a verifiable record query needs at least one record type") }
        let candidates = try VerifiableRecordStore(database: samples.database).records(types: recordTypes, sourceTypes: sourceTypes, matching: filter)
        // Shown even when nothing matches: answering at once would tell the app the person has no such records.
        let sheet = RecordSharingSheet(app: app, records: candidates.map { RecordSharingSheet.Candidate(record: $0.record, verified: $0.verified) })
        switch await presenter.present(sheet) {
        case .cancelled:
            throw HKError(.errorUserCanceled, "the person closed the sheet without sharing any verifiable record")
        case .share(let chosen):
            return candidates.map(\.record).filter { chosen.contains($0.uuid) }
        }
    }

    package func quantitySeries(of uuids: [UUID], type: HKQuantityType) async throws -> [UUID: [(interval: DateInterval, value: Double)]] {
        let visible = try await samples(of: type, matching: .uuids(Set(uuids)), order: [], limit: nil)
        var series: [UUID: [(interval: DateInterval, value: Double)]] = [:]
        for case let sample as HKQuantitySample in visible where sample.count > 1 {
            let entries = try samples.seriesEntries(of: sample.uuid)
            guard !entries.isEmpty else { continue }
            series[sample.uuid] = entries.map { entry in
                (DateInterval(start: Date(timeIntervalSinceReferenceDate: entry.start), end: Date(timeIntervalSinceReferenceDate: entry.end)),
                 entry.originalValue)
            }
        }
        return series
    }

    /// The sample `uuid` of `type` when the app may see it; `errorNoData` naming it otherwise (hidden and absent alike).
    private func visibleSample(_ uuid: UUID, of type: HKSampleType, named name: String) async throws -> HKSample {
        guard let sample = try await samples(of: type, matching: .uuids([uuid]), order: [], limit: 1).first else {
            throw HKError(.errorNoData, "no \(name) \(uuid) is available to this app")
        }
        return sample
    }

    package func characteristic(_ type: HKCharacteristicTypeIdentifier) throws -> String? {
        try CharacteristicStore(database: samples.database).value(type, visibleTo: app.bundleIdentifier)
    }

    package func preferredUnits(for types: Set<HKQuantityType>) async throws -> [HKQuantityType: HKUnit] {
        let service = samples.authorization, app = app.bundleIdentifier
        for type in types where app != AuthorizationService.personReader {
            let askedToShare = try service.requestStatus(app: app, share: [type.identifier], read: []) == .unnecessary
            let askedToRead = try service.requestStatus(app: app, share: [], read: [type.identifier]) == .unnecessary
            guard askedToShare || askedToRead else {
                throw HKError(.errorAuthorizationNotDetermined,
                              "\(app) must request read or share access to \(type.identifier) before asking for its preferred unit")
            }
        }
        let units = PreferredUnitStore(database: samples.database)
        return try Dictionary(uniqueKeysWithValues: types.map { ($0, try units.unit(for: $0)) })
    }

    /// The person's units of the quantity types this app may ask about (`preferredUnits(for:)`'s rule), now and after
    /// each change of them: the daemon's preferred-units stream. Changes by other processes (`health prefer`) are heard
    /// through the store's change watch; a change of a type the app never asked about sends nothing.
    package func preferredUnitUpdates() -> AsyncThrowingStream<[String: String], any Error> {
        Self.producing { [samples, app] continuation in
            // Subscribed before the first read: a change in between is heard, not lost.
            let updates = samples.changes.subscribe()
            var last = try Self.units(askedBy: app.bundleIdentifier, in: samples)
            continuation.yield(last)
            // A unit is never changed by a save or delete (changes with their types); it is by the person's commit,
            // which the store's watch reports as "possibly anything", at most every 200 ms.
            for await change in updates where change.types == nil {
                let next = try Self.units(askedBy: app.bundleIdentifier, in: samples)
                guard !Task.isCancelled else { break }
                guard next != last else { continue }
                last = next
                continuation.yield(next)
            }
        }
    }

    /// The preferred unit of every quantity type `app` may ask about, by identifier.
    private static func units(askedBy app: String, in samples: SampleStore) throws -> [String: String] {
        let units = PreferredUnitStore(database: samples.database)
        var result: [String: String] = [:]
        for identifier in try samples.authorization.decidedTypes(app: app) {
            guard let type = HKObjectType.type(forIdentifier: identifier) as? HKQuantityType else { continue }
            result[identifier] = try units.unit(for: type).unitString
        }
        return result
    }

    package func enableBackgroundDelivery(for type: HKObjectType, frequency: HKUpdateFrequency) async throws {
        try BackgroundDeliveryStore(database: samples.database).enable(app: app.bundleIdentifier, type: type, frequency: frequency)
    }

    package func disableBackgroundDelivery(for type: HKObjectType?) async throws {
        let deliveries = BackgroundDeliveryStore(database: samples.database)
        if let type { try deliveries.disable(app: app.bundleIdentifier, type: type) } else { try deliveries.disableAll(app: app.bundleIdentifier) }
    }

    package func backgroundDeliveryFrequency(for type: String) async throws -> HKUpdateFrequency? {
        try BackgroundDeliveryStore(database: samples.database).frequency(app: app.bundleIdentifier, type: type)
    }

    package func statistics(_ plan: StatisticsPlan, mergeMode: HKStatisticsMergeMode) async throws -> HKStatistics? {
        HKStatisticsQuery.statistics(plan, loaded: try plan.load(from: samples, app: app.bundleIdentifier), mergeMode: mergeMode)
    }

    package func statisticsCollection(_ plan: StatisticsPlan, intervals: StatisticsIntervals, mergeMode: HKStatisticsMergeMode) async throws
        -> HKStatisticsCollectionQuery.Computed
    {
        HKStatisticsCollectionQuery.compute(plan, intervals: intervals, loaded: try plan.load(from: samples, app: app.bundleIdentifier),
                                            mergeMode: mergeMode)
    }

    // MARK: - Workout session mirroring

    /// The relay between this app's instances on this store.
    package var workoutSessionRelay: WorkoutSessionRelay {
        .relay(store: samples.database.directory, app: app.bundleIdentifier)
    }

    package func workoutSessionMessages(endpoint: UUID, session: UUID?) -> AsyncThrowingStream<WorkoutSessionMessage?, any Error> {
        let messages = workoutSessionRelay.messages(endpoint: endpoint, session: session)
        let (stream, continuation) = AsyncThrowingStream<WorkoutSessionMessage?, any Error>.makeStream()
        let task = Task {
            for await message in messages { continuation.yield(message) }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    package func sendWorkoutSessionMessage(_ message: WorkoutSessionMessage, from endpoint: UUID) async throws -> Int {
        try message.check()
        return workoutSessionRelay.send(message, from: endpoint)
    }
}
