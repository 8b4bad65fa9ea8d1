/// A type of data about the person that does not change over time, such as date of birth or blood type.
/// Apps may only read characteristics; the person sets them.
///
/// ```swift
/// let dateOfBirth = HKCharacteristicType(.dateOfBirth)
/// ```
public final class HKCharacteristicType: HKObjectType, @unchecked Sendable {
    /// Creates the characteristic type for an identifier; an unknown identifier is a programming error.
    public convenience init(_ identifier: HKCharacteristicTypeIdentifier) {
        guard let info = HealthCatalog.otherType(identifier.rawValue), info.kind == "characteristic" else {
            preconditionFailure("Unknown characteristic type identifier \"\(identifier.rawValue)\"")
        }
        self.init(identifier: info.identifier)
    }
}
