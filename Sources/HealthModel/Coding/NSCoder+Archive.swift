package import Foundation

// The helpers every HealthKit class's `init?(coder:)` and `encode(with:)` use. Decoding helpers throw
// `ArchiveError`; `decodeValid` turns that into `failWithError` and a `nil` initializer.

extension NSCoder {
    /// The classes any object nested in a HealthKit archive may have; every nested decode accepts them all and then
    /// checks the kind itself. swift-corelibs-foundation stops the process (`fatalError`) when an archive names a
    /// class that is not one a decode allows, where Apple's Foundation fails the decode; accepting the model's own
    /// classes everywhere turns an object of another kind (a category type where a quantity type belongs, a unit
    /// where a quantity belongs) into a failed decode instead of a crash. They are all secure-coding value classes.
    package static var healthModelClasses: [AnyClass] {
        [
            NSArray.self, NSString.self, NSData.self, NSNumber.self,
            HKObjectType.self, HKObject.self, HKUnit.self, HKQuantity.self, HKSource.self, HKSourceRevision.self, HKDevice.self,
            HKWorkoutEvent.self, HKWorkoutActivity.self, HKWorkoutConfiguration.self, HKStatistics.self, HKActivitySummary.self,
            HKCDADocument.self, HKFHIRResource.self, HKFHIRVersion.self, HKVerifiableClinicalRecordSubject.self,
            HKDeletedObject.self, HKBiologicalSexObject.self, HKBloodTypeObject.self, HKFitzpatrickSkinTypeObject.self,
            HKWheelchairUseObject.self, HKActivityMoveModeObject.self, CLLocation.self,
            HKHealthConceptIdentifier.self, HKClinicalCoding.self, HKMedicationConcept.self, HKUserAnnotatedMedication.self,
        ]
    }

    /// The body of an `init?(coder:)`: `decode`'s result, or `nil` once the failure is reported with
    /// `failWithError` (so `NSKeyedUnarchiver.unarchivedObject(ofClass:from:)` throws instead of returning a
    /// half-made object). `what` names the class in the error.
    package func decodeValid<T>(_ what: String, _ decode: () throws -> T) -> T? {
        do {
            return try decode()
        } catch let error as ArchiveError {
            reportFailure(error, decoding: what)
        } catch {
            reportFailure(.invalid("\(error)"), decoding: what)
        }
        return nil
    }

    /// Reports a failed decode with `failWithError`, unless a nested object already did (its error is the one kept).
    package func reportFailure(_ error: ArchiveError, decoding what: String) {
        if let unarchiver = self as? NSKeyedUnarchiver, unarchiver.error != nil { return }
        failWithError(error.cocoaError(decoding: what))
    }

    // MARK: Objects

    /// The object for `key`, or `nil` when the archive has none; an object of another kind is an error.
    /// `T` may be a model class, `String`, `Data` or an array of them (`[HKWorkoutEvent]`, `[String]`).
    package func decodeIfPresent<T>(_ type: T.Type, forKey key: String) throws -> T? {
        guard containsValue(forKey: key) else { return nil }
        guard let value = decodeObject(of: NSCoder.healthModelClasses, forKey: key) as? T else {
            throw ArchiveError.wrongKind(key, expected: "\(T.self)")
        }
        return value
    }

    /// The object for `key`, which must be there and be a `T`.
    package func decode<T>(_ type: T.Type, forKey key: String) throws -> T {
        guard let value = try decodeIfPresent(type, forKey: key) else { throw ArchiveError.missing(key) }
        return value
    }

    /// Encodes `object` unless it is `nil` (decoded with ``decodeIfPresent(_:forKey:)``).
    package func encodeIfPresent(_ object: Any?, forKey key: String) {
        if let object { encode(object, forKey: key) }
    }

    // MARK: Numbers, dates and enumerations

    /// The double for `key`, which must be there; bit for bit what was encoded.
    package func decodeRequiredDouble(forKey key: String) throws -> Double {
        guard containsValue(forKey: key) else { throw ArchiveError.missing(key) }
        return decodeDouble(forKey: key)
    }

    /// The double for `key`, which must be there and be finite.
    package func decodeFiniteDouble(forKey key: String) throws -> Double {
        let value = try decodeRequiredDouble(forKey: key)
        guard value.isFinite else { throw ArchiveError.invalid("\"\(key)\" is \(value); it must be finite") }
        return value
    }

    /// The integer for `key`, which must be there.
    package func decodeRequiredInteger(forKey key: String) throws -> Int {
        guard containsValue(forKey: key) else { throw ArchiveError.missing(key) }
        return decodeInteger(forKey: key)
    }

    /// The Boolean for `key`, which must be there.
    package func decodeRequiredBool(forKey key: String) throws -> Bool {
        guard containsValue(forKey: key) else { throw ArchiveError.missing(key) }
        return decodeBool(forKey: key)
    }

    /// The enumeration case whose raw value is archived for `key`; an unknown raw value is an error.
    package func decodeEnum<E: RawRepresentable>(_ type: E.Type, forKey key: String) throws -> E where E.RawValue: BinaryInteger {
        let raw = try decodeRequiredInteger(forKey: key)
        guard let rawValue = E.RawValue(exactly: raw), let value = E(rawValue: rawValue) else {
            throw ArchiveError.invalid("\(raw) is not a \(E.self) (\"\(key)\")")
        }
        return value
    }

    /// Encodes an enumeration case by its raw value.
    package func encodeEnum<E: RawRepresentable>(_ value: E, forKey key: String) where E.RawValue: BinaryInteger {
        encode(Int(value.rawValue), forKey: key)
    }

    /// Encodes a date as its exact time interval since the reference date.
    package func encodeDate(_ date: Date, forKey key: String) {
        encode(date.timeIntervalSinceReferenceDate, forKey: key)
    }

    /// The date for `key`, which must be there and finite (`distantPast` and `distantFuture` are).
    package func decodeDate(forKey key: String) throws -> Date {
        Date(timeIntervalSinceReferenceDate: try decodeFiniteDouble(forKey: key))
    }

    /// The date for `key`, or `nil` when the archive has none.
    package func decodeDateIfPresent(forKey key: String) throws -> Date? {
        containsValue(forKey: key) ? try decodeDate(forKey: key) : nil
    }

    /// Encodes a date interval as its start and duration (`key` + `Start`, `key` + `Duration`), exactly.
    package func encodeDateInterval(_ interval: DateInterval, forKey key: String) {
        encodeDate(interval.start, forKey: key + "Start")
        encode(interval.duration, forKey: key + "Duration")
    }

    /// The date interval archived for `key`, or `nil` when there is none; a negative or non-finite duration is an error
    /// (`DateInterval` would stop the program on a negative one).
    package func decodeDateIntervalIfPresent(forKey key: String) throws -> DateInterval? {
        guard containsValue(forKey: key + "Start") else { return nil }
        let start = try decodeDate(forKey: key + "Start")
        let duration = try decodeFiniteDouble(forKey: key + "Duration")
        guard duration >= 0 else { throw ArchiveError.invalid("\"\(key)Duration\" is negative (\(duration))") }
        return DateInterval(start: start, duration: duration)
    }

    /// The date interval archived for `key`, which must be there.
    package func decodeDateInterval(forKey key: String) throws -> DateInterval {
        guard let interval = try decodeDateIntervalIfPresent(forKey: key) else { throw ArchiveError.missing(key + "Start") }
        return interval
    }

    // MARK: Identifiers

    /// Encodes a UUID as its string.
    package func encodeUUID(_ uuid: UUID, forKey key: String) {
        encode(uuid.uuidString, forKey: key)
    }

    /// The UUID for `key`, which must be there and well formed.
    package func decodeUUID(forKey key: String) throws -> UUID {
        let text = try decode(String.self, forKey: key)
        guard let uuid = UUID(uuidString: text) else { throw ArchiveError.invalid("\"\(text)\" is not a UUID (\"\(key)\")") }
        return uuid
    }
}
