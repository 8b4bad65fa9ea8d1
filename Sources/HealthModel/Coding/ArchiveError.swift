import Foundation

/// Why an archive of a HealthKit object does not decode: a value that is missing, of the wrong kind, or invalid
/// (an unknown identifier, a unit string that does not parse, an end before the start…).
package enum ArchiveError: Error, CustomStringConvertible {
    /// The archive has no value for this key.
    case missing(String)
    /// The value for this key is not of the kind expected.
    case wrongKind(String, expected: String)
    /// The values are there but do not make a valid object.
    case invalid(String)

    package var description: String {
        switch self {
        case .missing(let key): "no value for \"\(key)\""
        case .wrongKind(let key, let expected): "the value for \"\(key)\" is not of type \(expected)"
        case .invalid(let message): message
        }
    }

    /// The error `failWithError` reports: Cocoa's "value not found" or "read corrupt", with this description.
    func cocoaError(decoding what: String) -> CocoaError {
        let code: CocoaError.Code
        if case .missing = self { code = .coderValueNotFound } else { code = .coderReadCorrupt }
        return CocoaError(code, userInfo: [NSDebugDescriptionErrorKey: "Cannot decode \(what): \(description)"])
    }
}
