package import Foundation
package import HealthModel

/// Predicates between `SampleFilter` (what `HKQuery.predicateFor…` compiles to) and the API's `Predicate`: the remote
/// `HKHealthStore` compiles the app's `NSPredicate` as an embedded store would and sends the result; the daemon runs
/// it within what the app may see. The JSON is `SampleFilter`'s own coding (see SampleFilter+Codable.swift).
package enum WirePredicate {
    /// `filter` as the API's JSON.
    package static func wire(_ filter: SampleFilter) throws -> Components.Schemas.Predicate {
        try JSONDecoder().decode(Components.Schemas.Predicate.self, from: JSONEncoder().encode(filter))
    }

    /// The filter a request's `predicate` describes, or an error naming what is wrong with it (at `pointer`).
    package static func filter(_ wire: Components.Schemas.Predicate, at pointer: String) throws -> SampleFilter {
        do {
            return try JSONDecoder().decode(SampleFilter.self, from: JSONEncoder().encode(wire))
        } catch let error as DecodingError {
            throw WireFieldError(pointer + path(of: error), message(of: error))
        }
    }

    private static func context(of error: DecodingError) -> DecodingError.Context? {
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context), .dataCorrupted(let context): context
        @unknown default: nil
        }
    }

    private static func path(of error: DecodingError) -> String {
        var path = context(of: error)?.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.map { "/" + $0 }.joined() ?? ""
        if case .keyNotFound(let key, _) = error { path += "/" + key.stringValue }
        return path
    }

    private static func message(of error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, _): "the predicate needs \"\(key.stringValue)\""
        case .typeMismatch(let type, _): "expected \(type)"
        default: context(of: error)?.debugDescription ?? "not a predicate"
        }
    }
}
