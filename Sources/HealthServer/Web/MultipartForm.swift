import Foundation
import HTTPTypes
import Hummingbird

/// A small `multipart/form-data` form read whole (a file of health records or a card, with a few text fields), its CSRF
/// token checked first: a form with a file cannot carry it before the file, so it comes in the form's address (or, from
/// a script, in `X-CSRF-Token`).
struct MultipartForm: Sendable {
    struct Part: Sendable {
        var name: String
        var fileName: String?
        var data: Data
    }

    var parts: [Part]

    func file(_ name: String) -> Part? { parts.first { $0.name == name && $0.fileName != nil } }
    func text(_ name: String) -> String? {
        parts.first { $0.name == name && $0.fileName == nil }.map { String(decoding: $0.data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) }
    }

    /// The request's form, after its token: refused when the token is missing or wrong, the body is not a multipart form,
    /// or it is larger than `limit`.
    static func read(_ request: Request, limit: Int) async throws -> MultipartForm {
        try checkToken(request)
        let contentType = request.headers[.contentType] ?? ""
        guard contentType.lowercased().hasPrefix("multipart/form-data"), let boundary = boundary(contentType) else {
            throw WebRefusal(.unsupportedMediaType, "Send the file with the page's form.")
        }
        let body: ByteBuffer
        do { body = try await request.body.collect(upTo: limit) } catch {
            throw WebRefusal(.contentTooLarge, "The file is larger than \(limit >> 20) MB.")
        }
        return try parse(Data(buffer: body), boundary: boundary)
    }

    /// The upload's CSRF token, from `X-CSRF-Token` or the address's `csrf`, against the session's; refused with
    /// `refusal`.
    static func checkToken(_ request: Request, refusal: String = "This upload had expired or was not sent from this site's page, so nothing was added. Reload the page and try again.") throws {
        let token = request.headers[HTTPField.Name("X-CSRF-Token")!] ?? request.uri.queryParameters.get("csrf").map { String($0) }
        guard let session = PersonSession.current, let token, PersonSessions.same(token, session.csrfToken) else {
            throw WebRefusal(.forbidden, refusal)
        }
    }

    static func boundary(_ contentType: String) -> String? {
        guard let range = contentType.range(of: "boundary=") else { return nil }
        let value = contentType[range.upperBound...].split(separator: ";").first.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\" ")) }
        return value?.isEmpty == false ? value : nil
    }

    static func parse(_ data: Data, boundary: String) throws -> MultipartForm {
        let delimiter = Data("--\(boundary)".utf8)
        let headerEnd = Data("\r\n\r\n".utf8)
        var parts: [Part] = []
        guard var cursor = data.range(of: delimiter)?.upperBound else { throw WebRefusal(.badRequest, "The form arrived damaged.") }
        while true {
            // "--" after a delimiter ends the form.
            if data[cursor...].starts(with: Data("--".utf8)) { break }
            guard let headersEnd = data.range(of: headerEnd, in: cursor..<data.endIndex),
                  let next = data.range(of: Data("\r\n".utf8) + delimiter, in: headersEnd.upperBound..<data.endIndex) else {
                throw WebRefusal(.badRequest, "The form arrived damaged.")
            }
            let headers = String(decoding: data[cursor..<headersEnd.lowerBound], as: UTF8.self)
            func attribute(_ key: String) -> String? {
                guard let range = headers.range(of: "\(key)=\"") else { return nil }
                return String(headers[range.upperBound...].prefix { $0 != "\"" })
            }
            if let name = attribute("name") {
                parts.append(Part(name: name, fileName: attribute("filename"), data: Data(data[headersEnd.upperBound..<next.lowerBound])))
            }
            cursor = next.upperBound
        }
        return MultipartForm(parts: parts)
    }
}
