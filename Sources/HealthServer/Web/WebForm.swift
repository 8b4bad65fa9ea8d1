import Foundation

/// A posted form (`application/x-www-form-urlencoded`): its fields, each name's values in order.
struct WebForm: Sendable {
    private(set) var fields: [(name: String, value: String)] = []

    init(fields: [(name: String, value: String)] = []) { self.fields = fields }

    /// Parses a urlencoded body: `+` is a space, `%XX` a byte (UTF-8); a field that does not decode is dropped.
    init(urlencoded body: String) {
        for pair in body.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ part: Substring) -> String? { part.replacingOccurrences(of: "+", with: " ").removingPercentEncoding }
            guard let name = decode(parts[0]), let value = parts.count > 1 ? decode(parts[1]) : "" else { continue }
            fields.append((name, value))
        }
    }

    /// The first value of `name`, trimmed; nil when absent or empty.
    subscript(_ name: String) -> String? {
        guard let value = fields.first(where: { $0.name == name })?.value.trimmingCharacters(in: .whitespacesAndNewlines),
              !value.isEmpty else { return nil }
        return value
    }

    /// Every value of `name` (checkboxes of one name).
    func all(_ name: String) -> [String] { fields.filter { $0.name == name }.map(\.value) }

    /// The current request's form, parsed (and its CSRF token checked) by ``WebGuard`` before the route runs.
    @TaskLocal static var current = WebForm()
}
