public import Foundation

/// A type of sample holding one value of a small enumeration, such as sleep analysis or a symptom's severity.
///
/// ```swift
/// let sleep = HKCategoryType(.sleepAnalysis)
/// let sample = HKCategorySample(type: sleep, value: HKCategoryValueSleepAnalysis.asleepREM.rawValue,
///                               start: start, end: end)
/// ```
public final class HKCategoryType: HKSampleType, @unchecked Sendable {
    package let info: CategoryTypeInfo

    package init(info: CategoryTypeInfo) {
        self.info = info
        super.init(identifier: info.identifier)
    }

    /// Creates the category type for an identifier. An identifier that is not in the catalog is a
    /// programming error, as in HealthKit; use ``HKObjectType/categoryType(forIdentifier:)`` to get `nil` instead.
    public convenience init(_ identifier: HKCategoryTypeIdentifier) {
        guard let info = HealthCatalog.categoryType(identifier.rawValue) else {
            preconditionFailure("Unknown category type identifier \"\(identifier.rawValue)\"")
        }
        self.init(info: info)
    }

    /// Decodes the type archived by ``HKObjectType/encode(with:)``; the identifier must be a category type's.
    public required convenience init?(coder: NSCoder) {
        guard let info = coder.decodeValid("HKCategoryType", {
            let identifier = try HKObjectType.decodeIdentifier(from: coder, of: HKCategoryType.self)
            guard let info = HealthCatalog.categoryType(identifier) else { throw ArchiveError.invalid("\"\(identifier)\" is not a category type") }
            return info
        }) else { return nil }
        self.init(info: info)
    }

    /// The raw values a sample of this type may hold, or `nil` when the catalog does not know the value enum.
    package var allowedValues: Set<Int>? { info.allowedValues }
}
