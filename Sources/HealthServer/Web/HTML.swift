/// HTML whose data is escaped by construction: every interpolated `String` (or number, or date) is escaped, and only
/// another `HTML` value goes in as markup. A page can hold a person's sample values, source names and an app's usage
/// descriptions, none of which may become markup.
///
/// ```swift
/// let row: HTML = "<td>\(app.name)</td>"      // "<td>Tom &amp; Jerry&#39;s</td>"
/// let page: HTML = "<table>\(rows)</table>"   // [HTML] joined as markup
/// ```
struct HTML: Sendable, ExpressibleByStringInterpolation, CustomStringConvertible {
    private(set) var markup: String

    init(markup: String) { self.markup = markup }
    init(stringLiteral literal: String) { markup = literal }
    init(stringInterpolation: StringInterpolation) { markup = stringInterpolation.markup }

    var description: String { markup }

    static let empty = HTML(markup: "")

    /// `text` with `& < > " '` replaced by their character references: safe as element content and as a quoted attribute.
    static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }

    struct StringInterpolation: StringInterpolationProtocol {
        var markup = ""
        init(literalCapacity: Int, interpolationCount: Int) { markup.reserveCapacity(literalCapacity + interpolationCount * 16) }
        mutating func appendLiteral(_ literal: String) { markup += literal }
        mutating func appendInterpolation(_ html: HTML) { markup += html.markup }
        mutating func appendInterpolation(_ parts: [HTML]) { for part in parts { markup += part.markup } }
        mutating func appendInterpolation(_ text: String) { markup += HTML.escape(text) }
        mutating func appendInterpolation(_ text: Substring) { markup += HTML.escape(String(text)) }
        mutating func appendInterpolation(_ number: Int) { markup += String(number) }
        mutating func appendInterpolation(_ text: String?) { if let text { markup += HTML.escape(text) } }
    }
}

extension Array where Element == HTML {
    func joined(separator: HTML = .empty) -> HTML {
        HTML(markup: map(\.markup).joined(separator: separator.markup))
    }
}
