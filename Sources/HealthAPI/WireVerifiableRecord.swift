package import Foundation
package import HealthModel

/// `HKVerifiableClinicalRecord` on the wire, both ways: the daemon writes the records the person shared, the remote
/// store reads them back into the records an embedded query would have given (the signed card and every field read
/// from it, the same UUID and import date).
package enum WireVerifiableRecord {
    package typealias Record = Components.Schemas.VerifiableRecord

    package static func wire(_ record: HKVerifiableClinicalRecord) -> Record {
        let birth = record.subject.dateOfBirthComponents
        return Record(uuid: record.uuid.uuidString, recordTypes: record.recordTypes, issuerIdentifier: record.issuerIdentifier,
                      subject: .init(fullName: record.subject.fullName, birthYear: birth?.year, birthMonth: birth?.month, birthDay: birth?.day),
                      issuedDate: record.issuedDate, relevantDate: record.relevantDate, expirationDate: record.expirationDate,
                      itemNames: record.itemNames, sourceType: record.sourceType?.rawValue,
                      dataRepresentation: String(decoding: record.dataRepresentation, as: UTF8.self), importedDate: record.startDate)
    }

    /// The records a response lists (`/records/<index>`); one described wrongly is an error naming the field.
    package static func records(_ wires: [Record]) throws -> [HKVerifiableClinicalRecord] {
        try wires.enumerated().map { index, wire in
            guard let uuid = UUID(wireText: wire.uuid) else { throw WireFieldError("/records/\(index)/uuid", "\"\(wire.uuid)\" is not a UUID") }
            let birth = wire.subject.birthYear.map { DateComponents(year: $0, month: wire.subject.birthMonth, day: wire.subject.birthDay) }
            return HKVerifiableClinicalRecord(
                recordTypes: wire.recordTypes, issuerIdentifier: wire.issuerIdentifier,
                subject: HKVerifiableClinicalRecordSubject(fullName: wire.subject.fullName, dateOfBirthComponents: birth),
                issuedDate: wire.issuedDate, relevantDate: wire.relevantDate, expirationDate: wire.expirationDate, itemNames: wire.itemNames,
                sourceType: wire.sourceType.map(HKVerifiableClinicalRecordSourceType.init(rawValue:)),
                dataRepresentation: Data(wire.dataRepresentation.utf8), imported: wire.importedDate, uuid: uuid)
        }
    }
}
