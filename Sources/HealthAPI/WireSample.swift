import Foundation
import HealthAPI
import HealthModel

/// Samples between HealthKit's objects and the API's JSON (`Components.Schemas.Sample`): a quantity sample carries
/// `quantity` (value and HKUnit string), a category sample `value`; metadata values keep their kind (string, number,
/// boolean, quantity, date). A sample coming in is checked as HealthKit's initializers check it, and keeps the UUID
/// the app gave it, so the app's object and the stored one are the same.
enum WireSample {
    typealias Sample = Components.Schemas.Sample

    /// The object `wire` describes, or a 400 naming the field at fault (`/samples/<index>/…`).
    static func object(_ wire: Sample, at pointer: String) throws -> HKSample {
        func field(_ name: String, _ message: String) -> Problem {
            Problem(.badRequest, "invalid sample", detail: "\(pointer)/\(name): \(message)", code: .errorInvalidArgument, field: "\(pointer)/\(name)")
        }
        guard let uuid = UUID(uuidString: wire.uuid) else { throw field("uuid", "\"\(wire.uuid)\" is not a UUID") }
        let metadata = try wire.metadata.map { try self.metadata($0.additionalProperties, at: pointer + "/metadata") }
        do {
            switch HKObjectType.type(forIdentifier: wire._type) {
            case let type as HKQuantityType:
                guard wire.value == nil else { throw field("value", "a \(wire._type) sample has a quantity, not a category value") }
                guard let quantity = wire.quantity else { throw field("quantity", "a \(wire._type) sample needs a quantity") }
                let unit: HKUnit
                do { unit = try HKUnit.parse(quantity.unit) } catch { throw field("quantity/unit", "\(error.localizedDescription)") }
                let checked = try HKQuantitySample.validated(type: type, quantity: HKQuantity(unit: unit, doubleValue: quantity.value),
                                                             start: wire.startDate, end: wire.endDate, metadata: metadata)
                return HKQuantitySample.make(type: type, quantity: checked.quantity, start: checked.startDate, end: checked.endDate,
                                             uuid: uuid, metadata: checked.metadataValues, device: nil)
            case let type as HKCategoryType:
                guard wire.quantity == nil else { throw field("quantity", "a \(wire._type) sample has a category value, not a quantity") }
                guard let value = wire.value else { throw field("value", "a \(wire._type) sample needs a category value") }
                let checked = try HKCategorySample.validated(type: type, value: value, start: wire.startDate, end: wire.endDate,
                                                             metadata: metadata)
                return HKCategorySample(type: type, value: checked.value, start: checked.startDate, end: checked.endDate,
                                        uuid: uuid, metadata: checked.metadataValues, device: nil)
            case .some:
                throw field("type", "\(wire._type) samples cannot be saved through the daemon yet (quantity and category samples can)")
            case nil:
                throw field("type", "\"\(wire._type)\" is not a HealthKit sample type identifier")
            }
        } catch let error as HKError {
            throw Problem(error, field: pointer)
        }
    }

    /// `sample` as the API's JSON.
    static func wire(_ sample: HKSample) -> Sample {
        var wire = Sample(uuid: sample.uuid.uuidString, _type: sample.sampleType.identifier, startDate: sample.startDate, endDate: sample.endDate)
        switch sample {
        case let quantity as HKQuantitySample:
            wire.quantity = .init(value: quantity.quantity.doubleValue, unit: quantity.quantity.unit.unitString)
        case let category as HKCategorySample:
            wire.value = category.value
        default: break
        }
        if let values = sample.metadataValues, !values.isEmpty {
            wire.metadata = .init(additionalProperties: values.mapValues(metadataValue))
        }
        wire.source = .init(name: sample.sourceRevision.source.name, bundleIdentifier: sample.sourceRevision.source.bundleIdentifier)
        return wire
    }

    private static func metadata(_ values: [String: Components.Schemas.MetadataValue], at pointer: String) throws -> [String: Any] {
        var result: [String: Any] = [:]
        for (key, value) in values {
            switch value {
            case .case1(let text): result[key] = text
            // JSON has one kind of number; a whole one is an integer, as HKMetadataKeySyncVersion needs.
            case .case2(let number):
                result[key] = number.rounded() == number && abs(number) < 9.0e15 ? Int(number) as Any : number as Any
            case .case3(let flag): result[key] = flag
            case .Quantity(let quantity):
                guard let unit = try? HKUnit.parse(quantity.unit) else {
                    throw Problem(.badRequest, "invalid sample", detail: "\(pointer)/\(key)/unit: \"\(quantity.unit)\" is not a unit",
                                  code: .errorInvalidArgument, field: "\(pointer)/\(key)/unit")
                }
                result[key] = HKQuantity(unit: unit, doubleValue: quantity.value)
            case .MetadataDate(let date): result[key] = date.date
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
