package import Foundation
package import HealthModel

/// A request field the API cannot take: its JSON pointer and why (the daemon answers it as a 400 naming the field; the
/// remote store, reading a response, as `HKError(.errorInvalidArgument)`).
package struct WireFieldError: Error, Sendable, Equatable {
    package let field: String
    package let message: String

    package init(_ field: String, _ message: String) {
        self.field = field
        self.message = message
    }
}

/// Samples between HealthKit's objects and the API's JSON (`Components.Schemas.Sample`), for both sides: the daemon
/// reads what an app saves and writes what it reads; the remote `HKHealthStore` does the reverse. A quantity sample
/// carries `quantity` (value and HKUnit string, as the app gave it), a category sample `value`; metadata values keep
/// their kind (string, number, boolean, quantity, date); the device and the source revision come along, so an object
/// read through the daemon equals the one read from an embedded store.
package enum WireSample {
    package typealias Sample = Components.Schemas.Sample

    /// The object an app asks to save, checked as HealthKit's initializers check it and keeping the UUID the app gave
    /// it (so the app's object and the stored one are the same). The source is not read: the store sets it.
    package static func object(_ wire: Sample, at pointer: String) throws -> HKSample {
        func field(_ name: String, _ message: String) -> WireFieldError { WireFieldError("\(pointer)/\(name)", message) }
        guard let uuid = UUID(wireText: wire.uuid) else { throw field("uuid", "\"\(wire.uuid)\" is not a UUID") }
        guard wire.count ?? 1 == 1, wire.series == nil else {
            throw field(wire.series == nil ? "count" : "series", "a series sample cannot be saved this way; build it with HKQuantitySeriesSampleBuilder")
        }
        try carriesItsOwnParts(wire, at: pointer)
        let metadata = try wire.metadata.map { try self.metadata($0.additionalProperties, at: pointer + "/metadata") }
        let device = wire.device.map(device)
        let type = HKObjectType.type(forIdentifier: wire._type)
        if wire.clinical != nil, !(type is HKClinicalType) { throw field("clinical", "only clinical records have clinical fields") }
        switch type {
        case let type as HKQuantityType:
            guard wire.value == nil else { throw field("value", "a \(wire._type) sample has a quantity, not a category value") }
            try noCompoundFields(wire, at: pointer)
            guard let quantity = wire.quantity else { throw field("quantity", "a \(wire._type) sample needs a quantity") }
            let checked = try HKQuantitySample.validated(type: type, quantity: try self.quantity(quantity, at: pointer + "/quantity"),
                                                         start: wire.startDate, end: wire.endDate, metadata: metadata)
            return HKQuantitySample.make(type: type, quantity: checked.quantity, start: checked.startDate, end: checked.endDate,
                                         uuid: uuid, metadata: checked.metadataValues, device: device)
        case let type as HKCategoryType:
            guard wire.quantity == nil else { throw field("quantity", "a \(wire._type) sample has a category value, not a quantity") }
            guard let value = wire.value else { throw field("value", "a \(wire._type) sample needs a category value") }
            try noCompoundFields(wire, at: pointer)
            let checked = try HKCategorySample.validated(type: type, value: value, start: wire.startDate, end: wire.endDate, metadata: metadata)
            return HKCategorySample(type: type, value: checked.value, start: checked.startDate, end: checked.endDate,
                                    uuid: uuid, metadata: checked.metadataValues, device: device)
        case is HKWorkoutType:
            guard wire.quantity == nil, wire.value == nil, wire.objects == nil else {
                throw field(wire.quantity != nil ? "quantity" : wire.value != nil ? "value" : "objects", "a workout has none")
            }
            guard let fields = wire.workout else { throw field("workout", "a workout sample needs its workout fields") }
            var units: [String: HKUnit] = [:]
            let parts = try WireWorkout.parts(fields, at: pointer + "/workout", checking: true, units: &units)
            return try HKWorkout.checked(activityType: parts.activityType, start: wire.startDate, end: wire.endDate, duration: parts.duration,
                                         events: parts.events, activities: parts.activities, statistics: parts.statistics, uuid: uuid,
                                         metadata: metadata, device: device)
        case let type as HKCorrelationType:
            guard wire.quantity == nil, wire.value == nil, wire.workout == nil else {
                throw field(wire.quantity != nil ? "quantity" : wire.value != nil ? "value" : "workout", "a correlation has none; its samples do")
            }
            guard let members = wire.objects else { throw field("objects", "a correlation needs its samples") }
            let objects = try members.enumerated().map { index, member in try object(sample(member), at: "\(pointer)/objects/\(index)") }
            guard Set(objects.map(\.uuid)).count == objects.count else { throw field("objects", "holds one sample twice") }
            let checked = try HKCorrelation.validated(type: type, start: wire.startDate, end: wire.endDate, objects: Set(objects),
                                                      device: device, metadata: metadata)
            return HKCorrelation(type: type, start: wire.startDate, end: wire.endDate, objects: checked.objects, uuid: uuid,
                                 metadata: checked.metadataValues, device: device)
        case is HKDocumentType:
            guard wire.quantity == nil, wire.value == nil, wire.workout == nil, wire.objects == nil else {
                throw field(wire.quantity != nil ? "quantity" : wire.value != nil ? "value" : wire.workout != nil ? "workout" : "objects",
                            "a CDA document has none")
            }
            guard let fields = wire.document else { throw field("document", "a CDA document sample needs its document") }
            let data = Data(fields.data.data)
            let document: HKCDADocument
            do { document = try CDADocumentParser.parse(data) } catch let error as HKError {
                throw field("document/data", error.message)
            }
            // HealthKit's initializer checks the dates and the metadata; the document is the one read above.
            let checked = try HKCDADocumentSample(data: data, start: wire.startDate, end: wire.endDate, metadata: metadata)
            return HKCDADocumentSample(document: document, start: checked.startDate, end: checked.endDate, uuid: uuid, metadata: checked.metadataValues,
                                       device: device)
        case is HKStateOfMindType:
            guard wire.quantity == nil, wire.value == nil else {
                throw field(wire.quantity != nil ? "quantity" : "value", "a state of mind has its valence in stateOfMind")
            }
            try noCompoundFields(wire, at: pointer)
            guard let fields = wire.stateOfMind else { throw field("stateOfMind", "a state of mind needs its kind, valence, labels and associations") }
            guard wire.startDate == wire.endDate else { throw field("endDate", "a state of mind is at one moment: its endDate must equal its startDate") }
            let parts = try stateOfMindParts(fields, at: pointer + "/stateOfMind")
            let checked: HKStateOfMind
            do {
                checked = try HKStateOfMind.validated(date: wire.startDate, kind: parts.kind, valence: fields.valence, labels: parts.labels,
                                                      associations: parts.associations, metadata: metadata)
            } catch let error as HKError where error.message.contains("valence") {
                throw field("stateOfMind/valence", error.message)
            }
            return HKStateOfMind(date: wire.startDate, kind: parts.kind, valence: fields.valence, labels: parts.labels,
                                 associations: parts.associations, uuid: uuid, metadata: checked.metadataValues, device: device)
        case is HKAudiogramSampleType:
            guard wire.quantity == nil, wire.value == nil else {
                throw field(wire.quantity != nil ? "quantity" : "value", "an audiogram has its sensitivities in audiogram")
            }
            try noCompoundFields(wire, at: pointer)
            guard let fields = wire.audiogram else { throw field("audiogram", "an audiogram needs its sensitivity points") }
            let points = try audiogramPoints(fields, at: pointer + "/audiogram")
            do {
                let checked = try HKAudiogramSample.validated(sensitivityPoints: points, start: wire.startDate, end: wire.endDate, metadata: metadata)
                return HKAudiogramSample(sensitivityPoints: points, start: checked.startDate, end: checked.endDate, uuid: uuid,
                                         metadata: checked.metadataValues, device: device)
            } catch let error as HKError where error.message.contains("frequencies") || error.message.contains("30 sensitivity points") {
                throw field("audiogram/points", error.message)
            }
        case let type as HKScoredAssessmentType:
            guard wire.quantity == nil, wire.value == nil else {
                throw field(wire.quantity != nil ? "quantity" : "value", "a scored assessment has its answers in scoredAssessment")
            }
            try noCompoundFields(wire, at: pointer)
            guard let fields = wire.scoredAssessment else { throw field("scoredAssessment", "a scored assessment needs its answers") }
            guard wire.startDate == wire.endDate else { throw field("endDate", "a scored assessment is at one moment: its endDate must equal its startDate") }
            let checked: [String: HKMetadataValue]?
            do { checked = try MetadataValidation.validate(metadata) } catch let error as HKError { throw field("metadata", error.message) }
            let made: HKScoredAssessment
            do {
                made = try HKScoredAssessment.make(type: type, date: wire.startDate, answerRawValues: fields.answers, uuid: uuid, metadata: checked,
                                                   device: device)
            } catch let error as HKError {
                throw field("scoredAssessment/answers", error.message)
            }
            if let score = fields.score, score != made.score {
                throw field("scoredAssessment/score", "the answers score \(made.score), not \(score)")
            }
            return made
        case is HKPrescriptionType:
            guard wire.quantity == nil, wire.value == nil else {
                throw field(wire.quantity != nil ? "quantity" : "value", "a vision prescription has its lenses in visionPrescription")
            }
            try noCompoundFields(wire, at: pointer)
            guard let fields = wire.visionPrescription else { throw field("visionPrescription", "a vision prescription needs its prescriptionType") }
            let checked: [String: HKMetadataValue]?
            do {
                checked = try HKVisionPrescription.check(dateIssued: wire.startDate, expirationDate: expiration(wire.endDate), metadata: metadata)
            } catch let error as HKError where error.message.contains("expires") {
                throw field("endDate", error.message)
            }
            return try prescription(fields, at: pointer + "/visionPrescription", start: wire.startDate, end: wire.endDate, uuid: uuid,
                                    metadata: checked, revision: HKObject.unsavedRevision, device: device)
        case let type as HKClinicalType:
            throw HKError(.errorAuthorizationDenied, "clinical records are read-only: apps cannot save or delete them (\(type.identifier) \(uuid))")
        case .some:
            throw field("type", "\(wire._type) samples cannot go through the daemon yet (quantity, category, workout, correlation, state of mind, scored assessment, audiogram, vision prescription and CDA document samples can)")
        case nil:
            throw field("type", "\"\(wire._type)\" is not a HealthKit sample type identifier")
        }
    }

    /// A vision prescription's expiration from its end date (none at `Date.distantFuture`).
    static func expiration(_ end: Date) -> Date? { end >= HKVisionPrescription.noExpiration ? nil : end }

    /// A vision prescription from the wire, checked as HealthKit's initializers check it; an error names the field.
    static func prescription(_ fields: Components.Schemas.VisionPrescription, at pointer: String, start: Date, end: Date, uuid: UUID,
                             metadata: [String: HKMetadataValue]?, revision: HKSourceRevision, device: HKDevice?) throws -> HKVisionPrescription {
        guard let type = HKVisionPrescriptionType(rawValue: fields.prescriptionType) else {
            throw WireFieldError(pointer + "/prescriptionType", "\(fields.prescriptionType) is not an HKVisionPrescriptionType (1 glasses, 2 contacts)")
        }
        func lens(_ wire: Components.Schemas.LensSpecification?, _ name: String) throws -> HKLensSpecification.Stored? {
            guard let wire else { return nil }
            if let prism = wire.prism, HKVisionEye(rawValue: prism.eye) == nil {
                throw WireFieldError("\(pointer)/\(name)/prism/eye", "\(prism.eye) is not an HKVisionEye (1 left, 2 right)")
            }
            return HKLensSpecification.Stored(
                sphere: wire.sphere, cylinder: wire.cylinder, axis: wire.axis, addPower: wire.addPower, vertexDistance: wire.vertexDistance,
                prism: wire.prism.map { HKVisionPrism.Stored(amount: $0.amount, angle: $0.angle, eye: $0.eye) },
                farPupillaryDistance: wire.farPupillaryDistance, nearPupillaryDistance: wire.nearPupillaryDistance, baseCurve: wire.baseCurve,
                diameter: wire.diameter)
        }
        let right = try lens(fields.rightEye, "rightEye"), left = try lens(fields.leftEye, "leftEye")
        do {
            return try HKVisionPrescription.restored(type: type, brand: fields.brand, rightEye: right, leftEye: left, dateIssued: start,
                                                     expirationDate: expiration(end), uuid: uuid, metadata: metadata, sourceRevision: revision,
                                                     device: device)
        } catch let error as HKError {
            let side = error.message.contains("right eye") ? "/rightEye" : error.message.contains("left eye") ? "/leftEye" : ""
            throw WireFieldError(pointer + side, error.message)
        }
    }

    /// A vision prescription on the wire.
    static func wirePrescription(_ prescription: HKVisionPrescription) -> Components.Schemas.VisionPrescription {
        func lens(_ lens: HKLensSpecification?) -> Components.Schemas.LensSpecification? {
            guard let stored = lens?.stored else { return nil }
            return .init(sphere: stored.sphere, cylinder: stored.cylinder, axis: stored.axis, addPower: stored.addPower,
                         vertexDistance: stored.vertexDistance, prism: stored.prism.map { .init(amount: $0.amount, angle: $0.angle, eye: $0.eye) },
                         farPupillaryDistance: stored.farPupillaryDistance, nearPupillaryDistance: stored.nearPupillaryDistance,
                         baseCurve: stored.baseCurve, diameter: stored.diameter)
        }
        return .init(prescriptionType: prescription.prescriptionType.rawValue, brand: prescription.lensBrand,
                     rightEye: lens(prescription.lenses.right), leftEye: lens(prescription.lenses.left))
    }

    /// A state of mind's kind, labels and associations from their raw values; an unknown one is an error naming it.
    static func stateOfMindParts(_ fields: Components.Schemas.StateOfMind, at pointer: String) throws
        -> (kind: HKStateOfMind.Kind, labels: [HKStateOfMind.Label], associations: [HKStateOfMind.Association])
    {
        guard let kind = HKStateOfMind.Kind(rawValue: fields.kind) else {
            throw WireFieldError(pointer + "/kind", "\(fields.kind) is not an HKStateOfMind.Kind (1 momentary emotion, 2 daily mood)")
        }
        let labels = try fields.labels.enumerated().map { index, raw in
            guard let label = HKStateOfMind.Label(rawValue: raw) else {
                throw WireFieldError("\(pointer)/labels/\(index)", "\(raw) is not an HKStateOfMind.Label")
            }
            return label
        }
        let associations = try fields.associations.enumerated().map { index, raw in
            guard let association = HKStateOfMind.Association(rawValue: raw) else {
                throw WireFieldError("\(pointer)/associations/\(index)", "\(raw) is not an HKStateOfMind.Association")
            }
            return association
        }
        return (kind, labels, associations)
    }

    /// An audiogram's points from the wire, each checked as HealthKit's initializers check it; an error names the field.
    static func audiogramPoints(_ fields: Components.Schemas.Audiogram, at pointer: String) throws -> [HKAudiogramSensitivityPoint] {
        try fields.points.enumerated().map { index, point in
            let at = "\(pointer)/points/\(index)"
            guard point.frequency.isFinite, point.frequency > 0 else {
                throw WireFieldError(at + "/frequency", "an audiogram's frequency must be above 0 Hz, not \(point.frequency)")
            }
            let tests = try point.tests.enumerated().map { testIndex, test -> HKAudiogramSensitivityTest in
                let testAt = "\(at)/tests/\(testIndex)"
                guard let side = HKAudiogramSensitivityTestSide(rawValue: test.side) else {
                    throw WireFieldError(testAt + "/side", "\(test.side) is not an HKAudiogramSensitivityTestSide (0 left, 1 right)")
                }
                guard let type = HKAudiogramConductionType(rawValue: test._type) else {
                    throw WireFieldError(testAt + "/type", "\(test._type) is not an HKAudiogramConductionType (0 air)")
                }
                do {
                    let range = test.clampingLowerBound == nil && test.clampingUpperBound == nil ? nil
                        : try HKAudiogramSensitivityPointClampingRange(lowerBound: test.clampingLowerBound, upperBound: test.clampingUpperBound)
                    return try HKAudiogramSensitivityTest(sensitivity: HKQuantity(unit: .decibelHearingLevel(), doubleValue: test.sensitivity),
                                                          type: type, masked: test.masked, side: side, clampingRange: range)
                } catch let error as HKError {
                    throw WireFieldError(testAt, error.message)
                }
            }
            do {
                return try HKAudiogramSensitivityPoint(frequency: HKQuantity(unit: .hertz(), doubleValue: point.frequency), tests: tests)
            } catch let error as HKError {
                throw WireFieldError(at, error.message)
            }
        }
    }

    /// An audiogram's points on the wire.
    static func wireAudiogram(_ audiogram: HKAudiogramSample) -> Components.Schemas.Audiogram {
        .init(points: audiogram.sensitivityPoints.map { point in
            let stored = point.stored
            return .init(frequency: stored.f, tests: stored.t.map { test in
                .init(sensitivity: test.s, side: test.side, masked: test.m, _type: test.type, clampingLowerBound: test.lo, clampingUpperBound: test.hi)
            })
        })
    }

    /// What a series builder sends of its sample (`/v1/objects/quantity-series`): the UUID, the quantity type, the unit
    /// its quantities are in, the metadata (checked as the builder checks it) and the device. The value, count and
    /// summary are not read: the daemon makes them again from the quantities.
    package static func seriesParts(_ wire: Sample, at pointer: String) throws
        -> (uuid: UUID, type: HKQuantityType, unit: HKUnit, metadata: [String: HKMetadataValue]?, device: HKDevice?)
    {
        func field(_ name: String, _ message: String) -> WireFieldError { WireFieldError("\(pointer)/\(name)", message) }
        guard let uuid = UUID(wireText: wire.uuid) else { throw field("uuid", "\"\(wire.uuid)\" is not a UUID") }
        guard let type = HKObjectType.type(forIdentifier: wire._type) as? HKQuantityType else {
            throw field("type", "\"\(wire._type)\" is not a quantity type identifier")
        }
        try carriesItsOwnParts(wire, at: pointer)
        guard let quantity = wire.quantity else { throw field("quantity", "a series sample needs a quantity, for its unit") }
        let unit = try self.quantity(quantity, at: pointer + "/quantity").unit
        guard unit.dimension == type.canonicalUnit.dimension else {
            throw field("quantity/unit", "\(unit) is not a unit of \(type.identifier) (its unit is \(type.canonicalUnit))")
        }
        let raw = try wire.metadata.map { try self.metadata($0.additionalProperties, at: pointer + "/metadata") }
        let metadata: [String: HKMetadataValue]?
        do { metadata = try MetadataValidation.validate(raw, sampleType: type) } catch let error as HKError {
            throw field("metadata", error.message)
        }
        return (uuid, type, unit, metadata, wire.device.map(device))
    }

    /// A heartbeat series a builder sends (`/v1/objects/heartbeat-series`) with its beats, checked as the builder checks
    /// them: none before the start, each after the one before, the series ending at its last beat.
    package static func heartbeatSeries(_ wire: Sample, beats: [Components.Schemas.HeartbeatInput], at pointer: String) throws
        -> HKHeartbeatSeriesSample
    {
        func field(_ name: String, _ message: String) -> WireFieldError { WireFieldError("\(pointer)/\(name)", message) }
        guard let uuid = UUID(wireText: wire.uuid) else { throw field("uuid", "\"\(wire.uuid)\" is not a UUID") }
        guard wire._type == HKSeriesType.heartbeat().identifier else {
            throw field("type", "\"\(wire._type)\" is not \(HKSeriesType.heartbeat().identifier)")
        }
        try carriesItsOwnParts(wire, at: pointer)
        var previous: Double?
        for (index, beat) in beats.enumerated() {
            guard beat.timeSinceSeriesStart >= 0, beat.timeSinceSeriesStart.isFinite else {
                throw WireFieldError("/beats/\(index)/timeSinceSeriesStart", "a heartbeat's time since the series' start must be 0 or more")
            }
            if let previous, beat.timeSinceSeriesStart <= previous {
                throw WireFieldError("/beats/\(index)/timeSinceSeriesStart",
                                     "heartbeats come in order: \(beat.timeSinceSeriesStart) s does not come after the previous beat at \(previous) s")
            }
            previous = beat.timeSinceSeriesStart
        }
        guard let last = previous else { throw WireFieldError("/beats", "a heartbeat series needs at least one beat") }
        guard wire.count ?? beats.count == beats.count else { throw field("count", "\(wire.count ?? 0) beats said, \(beats.count) sent") }
        guard abs(wire.endDate.timeIntervalSince(wire.startDate) - last) < 0.001 else {
            throw field("endDate", "a heartbeat series ends at its last beat, \(last) s after its start")
        }
        let raw = try wire.metadata.map { try self.metadata($0.additionalProperties, at: pointer + "/metadata") }
        let metadata: [String: HKMetadataValue]?
        do { metadata = try MetadataValidation.validate(raw) } catch let error as HKError { throw field("metadata", error.message) }
        return HKHeartbeatSeriesSample(count: beats.count, start: wire.startDate, end: wire.endDate,
                                       beats: beats.map { HeartbeatSeriesBeat(offset: $0.timeSinceSeriesStart, precededByGap: $0.precededByGap) },
                                       uuid: uuid, metadata: metadata, device: wire.device.map(device))
    }

    /// A correlation's member as a sample (the same fields; a member is never a workout or a correlation itself).
    private static func sample(_ member: Components.Schemas.CorrelationMember) -> Sample {
        Sample(uuid: member.uuid, _type: member._type, startDate: member.startDate, endDate: member.endDate, quantity: member.quantity,
               value: member.value, metadata: member.metadata.map { .init(additionalProperties: $0.additionalProperties) },
               source: member.source, device: member.device)
    }

    /// A sample as a correlation's member.
    private static func member(_ sample: HKSample) -> Components.Schemas.CorrelationMember {
        let wire = wire(sample)
        return .init(uuid: wire.uuid, _type: wire._type, startDate: wire.startDate, endDate: wire.endDate, quantity: wire.quantity, value: wire.value,
                     metadata: wire.metadata.map { .init(additionalProperties: $0.additionalProperties) }, source: wire.source, device: wire.device)
    }

    /// A sample an app sends carries its device itself: `deviceIndex` and `sourceIndex` name parts of a list only the
    /// daemon sends.
    private static func carriesItsOwnParts(_ wire: Sample, at pointer: String) throws {
        if wire.deviceIndex != nil { throw WireFieldError(pointer + "/deviceIndex", "only in lists the daemon sends; a sample to save carries its `device`") }
        if wire.sourceIndex != nil { throw WireFieldError(pointer + "/sourceIndex", "only in lists the daemon sends; the daemon sets a saved sample's source") }
    }

    /// A quantity or category sample has no workout fields and no samples of its own.
    private static func noCompoundFields(_ wire: Sample, at pointer: String) throws {
        if wire.workout != nil { throw WireFieldError(pointer + "/workout", "only a workout has workout fields") }
        if wire.objects != nil { throw WireFieldError(pointer + "/objects", "only a correlation holds samples") }
    }

    /// The stored samples a response lists (`/samples/<index>`), each unit string parsed once for all of them, and each of
    /// the list's `sources` and `devices` made once for all the samples that name it by index (so the samples share it, as
    /// the embedded store's share a source revision).
    package static func stored(_ wires: [Sample], sources: [Components.Schemas.Source]? = nil, devices: [Components.Schemas.Device]? = nil)
        throws -> [HKSample]
    {
        var parts = StoredParts(sources: sources ?? [], devices: devices ?? [])
        return try wires.enumerated().map { index, wire in try stored(wire, at: "/samples/\(index)", parts: &parts) }
    }

    /// What the samples of one response share, each made once: the HKUnits of its unit strings, and the source revisions
    /// and devices its lists hold.
    struct StoredParts {
        let sources: [Components.Schemas.Source]
        let devices: [Components.Schemas.Device]
        var units: [String: HKUnit] = [:]
        var revisions: [Int: HKSourceRevision] = [:]
        var madeDevices: [Int: HKDevice] = [:]

        init(sources: [Components.Schemas.Source], devices: [Components.Schemas.Device]) {
            self.sources = sources
            self.devices = devices
        }

        /// The sample's source revision: the list's by `sourceIndex`, or the one it carries (`source`).
        mutating func revision(of wire: Sample, at pointer: String) throws -> HKSourceRevision {
            guard let index = wire.sourceIndex else {
                return try WireSample.revision(wire.source ?? .init(name: "", bundleIdentifier: ""), at: pointer + "/source")
            }
            if let made = revisions[index] { return made }
            guard sources.indices.contains(index) else {
                throw WireFieldError(pointer + "/sourceIndex", "\(index) is not an index of the list's \(sources.count) sources")
            }
            let made = try WireSample.revision(sources[index], at: "/sources/\(index)")
            revisions[index] = made
            return made
        }

        /// The sample's device, if it has one: the list's by `deviceIndex`, or the one it carries (`device`).
        mutating func device(of wire: Sample, at pointer: String) throws -> HKDevice? {
            guard let index = wire.deviceIndex else { return wire.device.map(WireSample.device) }
            if let made = madeDevices[index] { return made }
            guard devices.indices.contains(index) else {
                throw WireFieldError(pointer + "/deviceIndex", "\(index) is not an index of the list's \(devices.count) devices")
            }
            let made = WireSample.device(devices[index])
            madeDevices[index] = made
            return made
        }
    }

    /// A stored sample as the daemon sent it, rebuilt with its source revision, device and series summary (the remote
    /// store's side). A sample the response describes wrongly is an error naming the field.
    private static func stored(_ wire: Sample, at pointer: String, parts: inout StoredParts) throws -> HKSample {
        func field(_ name: String, _ message: String) -> WireFieldError { WireFieldError("\(pointer)/\(name)", message) }
        guard let uuid = UUID(wireText: wire.uuid) else { throw field("uuid", "\"\(wire.uuid)\" is not a UUID") }
        let metadata = try wire.metadata.map { try self.metadata($0.additionalProperties, at: pointer + "/metadata", units: &parts.units) }
        let device = try parts.device(of: wire, at: pointer)
        let revision = try parts.revision(of: wire, at: pointer)
        switch HKObjectType.type(forIdentifier: wire._type) {
        case let type as HKQuantityType:
            guard let quantity = wire.quantity else { throw field("quantity", "a \(wire._type) sample needs a quantity") }
            let value = try self.quantity(quantity, at: pointer + "/quantity", units: &parts.units)
            if let series = wire.series {
                let summary = HKDiscreteQuantitySample.SeriesSummary(
                    minimum: try self.quantity(series.minimum, at: pointer + "/series/minimum", units: &parts.units),
                    maximum: try self.quantity(series.maximum, at: pointer + "/series/maximum", units: &parts.units),
                    mostRecent: try self.quantity(series.mostRecent, at: pointer + "/series/mostRecent", units: &parts.units),
                    mostRecentDateInterval: DateInterval(start: series.mostRecentStartDate, end: max(series.mostRecentStartDate, series.mostRecentEndDate)))
                return HKDiscreteQuantitySample(type: type, average: value, series: summary, start: wire.startDate, end: wire.endDate,
                                                count: wire.count ?? 1, uuid: uuid, metadata: metadata, sourceRevision: revision, device: device)
            }
            return HKQuantitySample.make(type: type, quantity: value, start: wire.startDate, end: wire.endDate, count: wire.count ?? 1,
                                         uuid: uuid, metadata: metadata, sourceRevision: revision, device: device)
        case let type as HKCategoryType:
            guard let value = wire.value else { throw field("value", "a \(wire._type) sample needs a category value") }
            return HKCategorySample(type: type, value: value, start: wire.startDate, end: wire.endDate, uuid: uuid, metadata: metadata,
                                    sourceRevision: revision, device: device)
        case is HKWorkoutType:
            guard let fields = wire.workout else { throw field("workout", "a workout sample needs its workout fields") }
            let workout = try WireWorkout.parts(fields, at: pointer + "/workout", checking: false, units: &parts.units)
            return HKWorkout(activityType: workout.activityType, start: wire.startDate, end: wire.endDate, duration: workout.duration,
                             events: workout.events, activities: workout.activities,
                             statistics: Dictionary(workout.statistics.map { ($0.quantityType, $0) }, uniquingKeysWith: { first, _ in first }),
                             uuid: uuid, metadata: metadata, sourceRevision: revision, device: device)
        case let type as HKCorrelationType:
            guard let members = wire.objects else { throw field("objects", "a correlation needs its samples") }
            let objects = try members.enumerated().map { index, member in
                try stored(sample(member), at: "\(pointer)/objects/\(index)", parts: &parts)
            }
            return HKCorrelation(type: type, start: wire.startDate, end: wire.endDate, objects: Set(objects), uuid: uuid, metadata: metadata,
                                 sourceRevision: revision, device: device)
        case let type as HKClinicalType:
            guard let clinical = wire.clinical else { throw field("clinical", "a clinical record needs its clinical fields") }
            guard let resource = clinical.fhirResource else { throw field("clinical/fhirResource", "a clinical record needs its FHIR resource") }
            let version: HKFHIRVersion
            do { version = try HKFHIRVersion(fromVersionString: resource.fhirVersion) } catch {
                throw field("clinical/fhirResource/fhirVersion", "\"\(resource.fhirVersion)\" is not major.minor.patch")
            }
            let fhir = HKFHIRResource(resourceType: HKFHIRResourceType(rawValue: resource.resourceType), identifier: resource.identifier,
                                      data: Data(resource.data.data), sourceURL: resource.sourceURL.flatMap(URL.init(string:)), fhirVersion: version)
            return HKClinicalRecord(type: type, displayName: clinical.displayName, fhirResource: fhir, received: wire.startDate, uuid: uuid,
                                    sourceRevision: revision)
        case is HKDocumentType:
            guard let fields = wire.document else { throw field("document", "a CDA document sample needs its document") }
            let document = HKCDADocument(documentData: Data(fields.data.data), title: fields.title ?? "", patientName: fields.patientName ?? "",
                                         authorName: fields.authorName ?? "", custodianName: fields.custodianName ?? "")
            return HKCDADocumentSample(document: document, start: wire.startDate, end: wire.endDate, uuid: uuid, metadata: metadata,
                                       sourceRevision: revision, device: device)
        case is HKElectrocardiogramType:
            guard let ecg = wire.electrocardiogram else { throw field("electrocardiogram", "an electrocardiogram needs its electrocardiogram fields") }
            let perMinute = HKUnit.count().unitDivided(by: .minute())
            return HKElectrocardiogram(
                start: wire.startDate, end: wire.endDate, numberOfVoltageMeasurements: ecg.numberOfVoltageMeasurements,
                samplingFrequency: try ecg.samplingFrequency.map { try self.quantity($0, at: pointer + "/electrocardiogram/samplingFrequency", units: &parts.units) },
                classification: HKElectrocardiogram.Classification(rawValue: ecg.classification) ?? .unrecognized,
                averageHeartRate: try ecg.averageHeartRate.map {
                    try self.quantity($0, at: pointer + "/electrocardiogram/averageHeartRate", units: &parts.units)
                }.map { HKQuantity(unit: perMinute, doubleValue: $0.doubleValue(for: perMinute)) },
                symptomsStatus: HKElectrocardiogram.SymptomsStatus(rawValue: ecg.symptomsStatus) ?? .notSet,
                uuid: uuid, metadata: metadata, sourceRevision: revision, device: device)
        case is HKStateOfMindType:
            guard let fields = wire.stateOfMind else { throw field("stateOfMind", "a state of mind needs its stateOfMind fields") }
            let parts = try stateOfMindParts(fields, at: pointer + "/stateOfMind")
            guard (try? HKStateOfMind.checkValence(fields.valence)) != nil else {
                throw field("stateOfMind/valence", "\(fields.valence) is not a valence from -1 to 1")
            }
            return HKStateOfMind(date: wire.startDate, kind: parts.kind, valence: fields.valence, labels: parts.labels,
                                 associations: parts.associations, uuid: uuid, metadata: metadata, sourceRevision: revision, device: device)
        case is HKAudiogramSampleType:
            guard let fields = wire.audiogram else { throw field("audiogram", "an audiogram needs its sensitivity points") }
            return HKAudiogramSample(sensitivityPoints: try audiogramPoints(fields, at: pointer + "/audiogram"), start: wire.startDate,
                                     end: wire.endDate, uuid: uuid, metadata: metadata, sourceRevision: revision, device: device)
        case let type as HKScoredAssessmentType:
            guard let fields = wire.scoredAssessment else { throw field("scoredAssessment", "a scored assessment needs its answers") }
            do {
                return try HKScoredAssessment.make(type: type, date: wire.startDate, answerRawValues: fields.answers, uuid: uuid, metadata: metadata,
                                                   sourceRevision: revision, device: device)
            } catch let error as HKError {
                throw field("scoredAssessment/answers", error.message)
            }
        case is HKPrescriptionType:
            guard let fields = wire.visionPrescription else { throw field("visionPrescription", "a vision prescription needs its prescriptionType") }
            return try prescription(fields, at: pointer + "/visionPrescription", start: wire.startDate, end: wire.endDate, uuid: uuid,
                                    metadata: metadata, revision: revision, device: device)
        case is HKMedicationDoseEventType:
            guard let fields = wire.medicationDoseEvent else { throw field("medicationDoseEvent", "a dose event needs its medicationDoseEvent fields") }
            return try WireMedication.dose(fields, at: pointer + "/medicationDoseEvent", start: wire.startDate, end: wire.endDate, uuid: uuid,
                                           metadata: metadata, revision: revision, device: device)
        case let type as HKSeriesType where type == HKSeriesType.heartbeat():
            return HKHeartbeatSeriesSample(count: wire.count ?? 0, start: wire.startDate, end: wire.endDate, uuid: uuid, metadata: metadata,
                                           sourceRevision: revision, device: device)
        case let type as HKSeriesType where type == HKSeriesType.workoutRoute():
            return HKWorkoutRoute(count: wire.count ?? 0, start: wire.startDate, end: wire.endDate, uuid: uuid, metadata: metadata,
                                  sourceRevision: revision, device: device)
        default:
            throw field("type", "\"\(wire._type)\" samples cannot come through the daemon yet (quantity, category, workout and correlation samples, states of mind, scored assessments, audiograms, vision prescriptions, CDA documents, clinical records, electrocardiograms, heartbeat series and workout routes can)")
        }
    }

    /// Whether `object` can travel to the daemon to be saved: quantity, category, workout, correlation and CDA document
    /// samples, and clinical records (which the daemon refuses as the embedded store does), for now.
    package static func canCarry(_ object: HKObject) -> Bool {
        guard let type = (object as? HKSample)?.sampleType else { return false }
        return type is HKQuantityType || type is HKCategoryType || type is HKWorkoutType || type is HKCorrelationType || type is HKDocumentType
            || type is HKClinicalType || type is HKStateOfMindType || type is HKScoredAssessmentType || type is HKAudiogramSampleType
            || type is HKPrescriptionType
    }

    /// Whether the samples of `type` come back through the daemon as `Sample`s: those an app saves, and the read-only
    /// clinical records, electrocardiograms, heartbeat series and workout routes (whose data come from the queries of
    /// `/v1/queries/electrocardiogram-voltages`, `/heartbeats` and `/route-locations`).
    package static func carries(_ type: HKSampleType) -> Bool {
        type is HKQuantityType || type is HKCategoryType || type is HKWorkoutType || type is HKCorrelationType || type is HKDocumentType
            || type is HKClinicalType || type is HKElectrocardiogramType || type == HKSeriesType.heartbeat() || type == HKSeriesType.workoutRoute()
            || type is HKStateOfMindType || type is HKScoredAssessmentType || type is HKAudiogramSampleType || type is HKPrescriptionType
            || type is HKMedicationDoseEventType
    }

    /// Samples as a list the daemon sends (`SampleList`, `AnchoredChanges`): each source revision and device once, in
    /// `sources` and `devices`, every sample naming its own by index, so a hundred readings from one watch carry the
    /// watch once rather than a hundred times.
    package static func list(_ samples: [HKSample]) -> (samples: [Sample], sources: [Components.Schemas.Source]?, devices: [Components.Schemas.Device]?) {
        var sources = ListParts<HKSourceRevision, Components.Schemas.Source>(), devices = ListParts<HKDevice, Components.Schemas.Device>()
        var wires: [Sample] = []
        wires.reserveCapacity(samples.count)
        for sample in samples {
            wires.append(wire(sample, carrying: false, sourceIndex: sources.index(of: sample.sourceRevision, wire: wireSource),
                              deviceIndex: sample.device.map { devices.index(of: $0, wire: wireDevice) }))
        }
        return (wires, sources.parts.isEmpty ? nil : sources.parts, devices.parts.isEmpty ? nil : devices.parts)
    }

    /// The parts of a list (its source revisions or its devices), each once. The store's samples share their revision
    /// and device objects, so most are found by identity before they are made and compared by value.
    struct ListParts<Object: AnyObject, Wire: Hashable> {
        private(set) var parts: [Wire] = []
        private var byValue: [Wire: Int] = [:]
        private var byObject: [ObjectIdentifier: Int] = [:]

        mutating func index(of object: Object, wire: (Object) -> Wire) -> Int {
            if let index = byObject[ObjectIdentifier(object)] { return index }
            let made = wire(object)
            let index = byValue[made] ?? parts.count
            if index == parts.count {
                parts.append(made)
                byValue[made] = index
            }
            byObject[ObjectIdentifier(object)] = index
            return index
        }
    }

    /// `sample` in a list, naming its source revision and device by their indexes in the list.
    static func wire(_ sample: HKSample, carrying: Bool, sourceIndex: Int, deviceIndex: Int?) -> Sample {
        var wire = wire(sample, carrying: carrying)
        wire.sourceIndex = sourceIndex
        wire.deviceIndex = deviceIndex
        return wire
    }

    /// `sample` as the API's JSON, its source revision and device in it (`carrying`), or left for a list to name.
    package static func wire(_ sample: HKSample, carrying: Bool = true) -> Sample {
        var wire = Sample(uuid: sample.uuid.uuidString, _type: sample.sampleType.identifier, startDate: sample.startDate, endDate: sample.endDate)
        switch sample {
        case let quantity as HKQuantitySample:
            wire.quantity = wireQuantity(quantity.quantity)
            if quantity.count != 1 { wire.count = quantity.count }
            if let series = (quantity as? HKDiscreteQuantitySample)?.series {
                wire.series = .init(minimum: wireQuantity(series.minimum), maximum: wireQuantity(series.maximum),
                                    mostRecent: wireQuantity(series.mostRecent), mostRecentStartDate: series.mostRecentDateInterval.start,
                                    mostRecentEndDate: series.mostRecentDateInterval.end)
            }
        case let category as HKCategorySample:
            wire.value = category.value
        case let workout as HKWorkout:
            wire.workout = WireWorkout.wire(workout)
        case let record as HKClinicalRecord:
            wire.clinical = .init(displayName: record.displayName, fhirResource: record.fhirResource.map { resource in
                .init(resourceType: resource.resourceType.rawValue, identifier: resource.identifier, data: .init(resource.data),
                      sourceURL: resource.sourceURL?.absoluteString, fhirVersion: resource.fhirVersion.stringRepresentation)
            })
        case let sample as HKCDADocumentSample:
            if let document = sample.document {
                wire.document = .init(data: .init(document.documentData ?? Data()), title: document.title, patientName: document.patientName,
                                      authorName: document.authorName, custodianName: document.custodianName)
            }
        case let ecg as HKElectrocardiogram:
            wire.electrocardiogram = .init(classification: ecg.classification.rawValue, symptomsStatus: ecg.symptomsStatus.rawValue,
                                           averageHeartRate: ecg.averageHeartRate.map(wireQuantity),
                                           samplingFrequency: ecg.samplingFrequency.map(wireQuantity),
                                           numberOfVoltageMeasurements: ecg.numberOfVoltageMeasurements)
        case let state as HKStateOfMind:
            wire.stateOfMind = .init(kind: state.kind.rawValue, valence: state.valence, labels: state.labels.map(\.rawValue),
                                     associations: state.associations.map(\.rawValue))
        case let audiogram as HKAudiogramSample:
            wire.audiogram = wireAudiogram(audiogram)
        case let assessment as HKScoredAssessment:
            wire.scoredAssessment = .init(answers: assessment.answerRawValues, score: assessment.score)
        case let prescription as HKVisionPrescription:
            wire.visionPrescription = wirePrescription(prescription)
        case let dose as HKMedicationDoseEvent:
            wire.medicationDoseEvent = WireMedication.wireDose(dose)
        case let series as HKHeartbeatSeriesSample:
            wire.count = series.count
        case let route as HKWorkoutRoute:
            wire.count = route.count
        case let correlation as HKCorrelation:
            wire.objects = correlation.objects.sorted { ($0.startDate, $0.sampleType.identifier, $0.uuid.uuidString) < ($1.startDate, $1.sampleType.identifier, $1.uuid.uuidString) }
                .map { member($0) }
        default: break
        }
        wire.metadata = wireMetadata(sample.metadataValues).map { .init(additionalProperties: $0) }
        if carrying {
            wire.device = sample.device.map(wireDevice)
            wire.source = wireSource(sample.sourceRevision)
        }
        return wire
    }

    static func wireDevice(_ device: HKDevice) -> Components.Schemas.Device {
        .init(name: device.name, manufacturer: device.manufacturer, model: device.model, hardwareVersion: device.hardwareVersion,
              firmwareVersion: device.firmwareVersion, softwareVersion: device.softwareVersion, localIdentifier: device.localIdentifier,
              udiDeviceIdentifier: device.udiDeviceIdentifier)
    }

    static func wireSource(_ revision: HKSourceRevision) -> Components.Schemas.Source {
        let os = revision.operatingSystemVersion
        return .init(name: revision.source.name, bundleIdentifier: revision.source.bundleIdentifier, version: revision.version,
                     productType: revision.productType,
                     operatingSystemVersion: os.majorVersion < 0 ? nil : "\(os.majorVersion).\(os.minorVersion).\(os.patchVersion)")
    }

    // MARK: - Parts

    static func wireQuantity(_ quantity: HKQuantity) -> Components.Schemas.Quantity {
        .init(value: quantity.doubleValue, unit: quantity.unit.unitString)
    }

    private static func quantity(_ wire: Components.Schemas.Quantity, at pointer: String) throws -> HKQuantity {
        var units: [String: HKUnit] = [:]
        return try quantity(wire, at: pointer, units: &units)
    }

    /// The quantity, its unit looked up in (or added to) `units`.
    static func quantity(_ wire: Components.Schemas.Quantity, at pointer: String, units: inout [String: HKUnit]) throws -> HKQuantity {
        if let unit = units[wire.unit] { return HKQuantity(unit: unit, doubleValue: wire.value) }
        let unit: HKUnit
        do { unit = try HKUnit.parse(wire.unit) } catch { throw WireFieldError(pointer + "/unit", "\"\(wire.unit)\" is not a unit") }
        units[wire.unit] = unit
        return HKQuantity(unit: unit, doubleValue: wire.value)
    }

    private static func device(_ wire: Components.Schemas.Device) -> HKDevice {
        HKDevice(name: wire.name, manufacturer: wire.manufacturer, model: wire.model, hardwareVersion: wire.hardwareVersion,
                 firmwareVersion: wire.firmwareVersion, softwareVersion: wire.softwareVersion, localIdentifier: wire.localIdentifier,
                 udiDeviceIdentifier: wire.udiDeviceIdentifier)
    }

    /// The source revision a response describes at `pointer` (a sample's `source`, or one of a list's `sources`).
    private static func revision(_ source: Components.Schemas.Source, at pointer: String) throws -> HKSourceRevision {
        HKSourceRevision(source: HKSource(name: source.name, bundleIdentifier: source.bundleIdentifier), version: source.version,
                         productType: source.productType,
                         operatingSystemVersion: try operatingSystemVersion(source.operatingSystemVersion, at: pointer + "/operatingSystemVersion"))
    }

    private static func operatingSystemVersion(_ text: String?, at pointer: String) throws -> OperatingSystemVersion {
        guard let text else { return HKSourceRevisionAnyOperatingSystem }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false).map { Int($0) }
        guard parts.count == 3, let major = parts[0], let minor = parts[1], let patch = parts[2] else {
            throw WireFieldError(pointer, "\"\(text)\" is not major.minor.patch")
        }
        return OperatingSystemVersion(majorVersion: major, minorVersion: minor, patchVersion: patch)
    }

    /// Metadata as the API's values; nil when there is none.
    static func wireMetadata(_ values: [String: HKMetadataValue]?) -> [String: Components.Schemas.MetadataValue]? {
        guard let values, !values.isEmpty else { return nil }
        return values.mapValues(metadataValue)
    }

    /// Metadata as the initializers of the objects an app saves take it (and check it).
    static func metadata(_ values: [String: Components.Schemas.MetadataValue], at pointer: String) throws -> [String: Any] {
        var units: [String: HKUnit] = [:]
        return try metadata(values, at: pointer, units: &units).mapValues(\.anyValue)
    }

    /// Metadata as a stored object holds it, each unit looked up in (or added to) `units`.
    static func metadata(_ values: [String: Components.Schemas.MetadataValue], at pointer: String, units: inout [String: HKUnit]) throws
        -> [String: HKMetadataValue]
    {
        var result: [String: HKMetadataValue] = [:]
        result.reserveCapacity(values.count)
        for (key, value) in values {
            switch value {
            case .case1(let text): result[key] = .string(text)
            // JSON has one kind of number; a whole one is an integer, as HKMetadataKeySyncVersion needs.
            case .case2(let number): result[key] = number.rounded() == number && abs(number) < 9.0e15 ? .integer(Int(number)) : .double(number)
            case .case3(let flag): result[key] = .bool(flag)
            case .Quantity(let quantity): result[key] = .quantity(try self.quantity(quantity, at: "\(pointer)/\(key)", units: &units))
            case .MetadataDate(let date): result[key] = .date(date.date)
            }
        }
        return result
    }

    private static func metadataValue(_ value: HKMetadataValue) -> Components.Schemas.MetadataValue {
        switch value {
        case .string(let text): .case1(text)
        case .integer(let number): .case2(Double(number))
        case .double(let number): .case2(number)
        case .bool(let flag): .case3(flag)
        case .quantity(let quantity): .Quantity(.init(value: quantity.doubleValue, unit: quantity.unit.unitString))
        case .date(let date): .MetadataDate(.init(date: date))
        }
    }
}
