package import Foundation

/// What went wrong with a file, in a few words a person reads ("no such file or directory", "permission denied", "not valid JSON
/// at line 3, column 14"), from the error Foundation threw — never its `NSCocoaErrorDomain … UserInfo={…}` dump.
///
/// ```swift
/// do { _ = try Data(contentsOf: url) } catch { throw HKError.invalidArgument("cannot read \(url.path): \(FileProblem(error))") }
/// ```
package struct FileProblem: CustomStringConvertible, Sendable {
    package let description: String
    /// The file the error names, when it names one.
    package let path: String?

    package init(_ error: any Error, json: Data? = nil) {
        if let decoding = error as? DecodingError {
            description = Self.describe(decoding, json: json)
            path = nil
            return
        }
        let error = error as NSError
        path = (error.userInfo[NSFilePathErrorKey] as? String) ?? (error.userInfo[NSURLErrorKey] as? URL)?.path
        if error.domain == NSPOSIXErrorDomain {
            description = Self.posix(Int32(error.code))
        } else if let underlying = error.userInfo[NSUnderlyingErrorKey] as? any Error,
                  (underlying as NSError).domain == NSPOSIXErrorDomain {
            description = Self.posix(Int32((underlying as NSError).code))
        } else if error.domain == NSCocoaErrorDomain {
            description = switch CocoaError.Code(rawValue: error.code) {
            case .fileNoSuchFile, .fileReadNoSuchFile: "no such file or directory"
            case .fileReadNoPermission, .fileWriteNoPermission: "permission denied"
            case .fileWriteFileExists: "a file of that name is already there"
            case .fileWriteOutOfSpace: "no space left on the device"
            case .fileWriteVolumeReadOnly: "the file system is read-only"
            case .fileReadCorruptFile, .propertyListReadCorrupt: "damaged or not in the expected format"
            case .fileReadInapplicableStringEncoding, .fileReadUnknownStringEncoding: "not text in a known encoding"
            case .fileReadTooLarge: "too large to read"
            default: "error \(error.code) (\(error.localizedDescription))"
            }
        } else {
            description = error.localizedDescription
        }
    }

    /// strerror's text, lower-cased as the middle of a sentence wants it ("No such file or directory" → "no such file
    /// or directory").
    private static func posix(_ code: Int32) -> String {
        let text = String(cString: strerror(code))
        return text.prefix(1).lowercased() + text.dropFirst()
    }

    /// A decoding failure: where the JSON is broken, or which key is missing or of the wrong kind.
    private static func describe(_ error: DecodingError, json: Data?) -> String {
        func keyPath(_ context: DecodingError.Context, _ key: (any CodingKey)? = nil) -> String {
            let keys = context.codingPath + (key.map { [$0] } ?? [])
            return keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "\(keyPath(context, key)) is missing"
        case .typeMismatch(let type, let context):
            return "\(keyPath(context)) is not \(type == String.self ? "a string" : type == Bool.self ? "true or false" : "a \(type)")"
        case .valueNotFound(_, let context):
            return "\(keyPath(context)) is null"
        case .dataCorrupted(let context):
            guard context.codingPath.isEmpty else { return "\(keyPath(context)) is not valid: \(context.debugDescription)" }
            return json.map(Self.jsonProblem) ?? "not valid JSON"
        @unknown default:
            return "not what was expected"
        }
    }

    /// Where JSON stops being JSON: "not valid JSON at line N, column M", or "empty" / "not text".
    private static func jsonProblem(_ data: Data) -> String {
        guard !data.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) else { return "empty, not JSON" }
        guard String(data: data, encoding: .utf8) != nil else { return "not UTF-8 text, so not JSON" }
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            return "not valid JSON"
        } catch {
            // Foundation says where: an index, or "… around character 18." in its debug description.
            let info = (error as NSError).userInfo
            let described = (info[NSDebugDescriptionErrorKey] as? String)
                .flatMap { $0.firstMatch(of: /character (\d+)/).flatMap { Int($0.1) } }
            if let index = info["NSJSONSerializationErrorIndex"] as? Int ?? described, index <= data.count {
                let before = data.prefix(index)
                let line = before.count { $0 == 0x0A } + 1
                let column = before.count - (before.lastIndex(of: 0x0A).map { $0 + 1 - before.startIndex } ?? 0) + 1
                return "not valid JSON at line \(line), column \(column)"
            }
            return "not valid JSON"
        }
    }
}
